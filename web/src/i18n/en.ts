/**
 * The room's text in English: the catalog every other language follows (its keys and the arguments
 * of its functions). `error.<code>`: the API's error codes in words.
 */
export const en = {
  // Home
  joinARoom: 'Join a room',
  roomCodeHint: "6 letters and digits, from the room's link",
  openTheRoom: 'Open the room',
  signInTitle: 'Sign in to run a session',
  createAccount: 'Create an account',
  email: 'Email',
  password: 'Password',
  passwordHint: 'At least 8 characters',
  signIn: 'Sign in',
  signUp: 'Sign up',
  toSignUp: 'No account yet? Sign up',
  toSignIn: 'Have an account? Sign in',
  deckFibonacci: 'Fibonacci: 0, ½, 1, 2, 3, 5, 8, 13, 20, 40, 100',
  deckTshirt: 'T-shirt sizes: XS to XXL',
  deckPowers: 'Powers of two: 0, 1, 2, 4 … 64',
  deckCustom: 'Custom deck',
  newSession: 'New session',
  sessionName: 'Name',
  deck: 'Deck',
  cards: 'Cards',
  cardsHint: '2 to 30 unique cards, separated by commas, e.g. 1, 2, 3, ?',
  deckName: 'Deck name (optional)',
  voteByDeadline: 'Close the voting at a deadline',
  deadline: 'Deadline',
  createSession: 'Create the session',
  yourSessions: 'Your sessions',
  noSessions: 'None yet: create one above.',
  // The page
  skipToContent: 'Skip to content',
  brand: 'Planning poker',
  signOut: 'Sign out',
  language: 'Language',
  pageTitle: (name: string) => `${name} · Planning poker`,

  // The room
  roomTitle: (code: string) => `Room ${code}`,
  roomOpening: (code: string) => `Opening room ${code}…`,
  roomMissing: (code: string) => `There is no room with the code ${code}.`,
  roomRetrying: (problem: string) => `${problem} The room tries again by itself.`,
  removedFromRoom: 'The moderator removed you from the room: join again to take part.',
  streamConnecting: 'Connecting…',
  streamLive: 'Live',
  streamReconnecting: 'Reconnecting…',
  streamOffline: 'Offline: will catch up when back',
  streamGone: 'This room is gone',
  roomCode: 'Room code',
  roomLink: 'Room link',
  copyLink: 'Copy link',
  copied: 'Copied',
  qrCode: 'QR code of the room link',

  // Join
  joinTitle: 'Join the room',
  peopleHere: (n: number) => `${n} ${n === 1 ? 'person' : 'people'} here`,
  nowEstimating: (title: string) => `now estimating “${title}”`,
  noStoryYet: 'no story open yet',
  cannotJoin: (status: string) => `This session is ${status}: it cannot be joined now.`,
  joinAs: (name: string) => `You join as ${name}.`,
  yourAccount: 'your account',
  yourName: 'Your name',
  onlyWatch: 'Only watch (an observer does not vote)',
  join: 'Join',

  // Session states
  status_active: 'active',
  status_paused: 'paused',
  status_completed: 'completed',
  status_archived: 'archived',

  // The round
  noStoryOpen: 'No story open',
  addStoryToStart: 'Add a story to start estimating.',
  waitingForModerator: 'Waiting for the moderator to open a story.',
  votedCount: (cast: number, total: number) => `${cast} of ${total} voted`,
  revealed: 'Revealed',
  notOpen: 'Not open for votes',
  votingClosedShort: ' · voting closed',
  votingClosesAt: (time: string) => ` · voting closes at ${time}`,
  sessionIs: (status: string) => ` · session ${status}`,
  archivedNoVotes: 'The session is archived: it is read-only.',
  completedNoVotes: 'The session is completed: it takes no more votes.',
  pausedNoVotes: 'The session is paused: votes are taken again once it resumes.',
  votingClosed: 'Voting has closed.',
  observerNote: 'You are watching: observers do not vote.',
  yourVote: 'Your vote:',
  changeUntilReveal: 'You can change it until the reveal.',
  pickACard: 'Pick a card, or type its number.',
  reveal: 'Reveal the votes',
  voteAgain: 'Vote again',
  clearVotes: 'Clear the votes',
  openForVotes: 'Open for votes',
  voteToo: 'Vote too',
  yourEstimate: 'Your estimate',
  coffeeBreak: 'coffee break',

  // People
  peopleTitle: (n: number) => `People (${n})`,
  votingCount: (n: number) => `${n} voting`,
  watchingCount: (n: number) => `, ${n} watching`,
  everyoneVoted: 'Everyone has voted.',
  stillToVote: (n: number, names: string, more: number) =>
    `Still to vote (${n}): ${names}${more > 0 ? ` and ${more} more` : ''}`,
  everyoneList: (n: number) => `Everyone (${n})`,
  participantsList: 'Participants',
  you: ' (you)',
  roleModerator: 'moderator',
  roleObserver: 'observer',
  hasVoted: '✓ voted',
  waiting: 'waiting',

  // Results
  revealedOn: (title: string, consensus: string) => `Votes revealed on “${title}”: consensus ${consensus}.`,
  resultsOf: (title: string) => `Results: ${title}`,
  consensus: 'Consensus',
  none: 'none',
  noVotesCast: 'No votes were cast.',
  votesOf: (title: string) => `Votes of ${title}`,
  who: 'Who',
  vote: 'Vote',
  anonymous: 'Anonymous',
  votesPerCard: 'Votes per card',

  // Stories
  storiesTitle: (n: number) => `Stories (${n})`,
  noStories: 'No stories yet.',
  storiesInOrder: 'Stories in order',
  storyWaiting: 'waiting',
  storyVoting: 'voting now',
  storyDone: 'done',
  estimateNow: 'Estimate now',
  moveUp: (title: string) => `Move “${title}” up`,
  moveDown: (title: string) => `Move “${title}” down`,
  deleteStory: (title: string) => `Delete “${title}”`,
  confirmDelete: (title: string) => `Delete “${title}”?`,
  newStory: 'New story',
  add: 'Add',

  // CSV import
  previewCsv: 'Preview',
  importPreview: 'Stories to import',
  importTitle: 'Import stories from CSV',
  csv: 'CSV',
  csvHint: 'Paste rows of title, description, acceptance criteria (a header row may name the columns).',
  importCount: (n: number) => `Import ${n} ${n === 1 ? 'story' : 'stories'}`,
  importAdded: (n: number) => `Added ${n} ${n === 1 ? 'story' : 'stories'}.`,

  // The owner's tools
  analytics: 'Analytics',
  showAnalytics: 'Show analytics',
  refreshAnalytics: 'Refresh analytics',
  estimatedOf: (revealed: number, stories: number, points: number) =>
    `${revealed} of ${stories} stories estimated · ${points} points`,
  finalEstimates: 'Final estimates',
  allVotes: 'All votes',
  history: 'History',
  story: 'Story',
  estimate: 'Estimate',
  agreement: 'Agreement',
  outliers: 'Outliers',
  someone: 'Someone',
  outlier: (name: string, value: string, title: string, estimate: string) =>
    `${name} voted ${value} on “${title}” (estimate ${estimate})`,
  exportTitle: 'Export',
  downloadCsv: 'Download CSV',
  downloadJson: 'Download JSON',
  settings: 'Settings',
  autoReveal: 'Reveal as soon as everyone has voted',
  namedVotes: "Keep voters' names in the history and the export",
  removeDeadline: 'Remove the voting deadline',
  // Countdown
  countdownLegend: 'Countdown',
  countdownLength: 'Length',
  countdownCustom: 'Custom',
  countdownSeconds: 'Seconds (5 to 3600)',
  countdownAtZero: 'At zero',
  countdownAtZeroReveal: 'reveal the votes',
  countdownAtZeroClose: 'close the voting',
  countdownStart: 'Start the countdown',
  countdownStop: 'Stop the countdown',
  countdownLeft: 'Time left',
  countdownRevealsAtZero: 'The votes are revealed at zero.',
  countdownClosesAtZero: 'Voting closes at zero.',
  countdownTimeUp: 'Time is up.',
  countdownSound: 'Sound at zero',
  /** A length said in words: "2 minutes", "45 seconds", "1 minute 30 seconds". */
  duration: (minutes: number, seconds: number) =>
    [
      minutes > 0 ? `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}` : '',
      seconds > 0 || minutes === 0 ? `${seconds} ${seconds === 1 ? 'second' : 'seconds'}` : '',
    ]
      .filter(Boolean)
      .join(' '),
  countdownStarted: (length: string) => `Countdown started: ${length}.`,
  countdownRemaining: (length: string) => `${length} left.`,
  /** The short form of the lengths to pick: "30 s", "2 min". */
  shortSeconds: (n: number) => `${n} s`,
  shortMinutes: (n: number) => `${n} min`,

  // Quick vote
  quickVote: 'Quick vote',
  quickVoteHint: 'Starts a round at once, without a prepared story.',

  // Results
  resultsMean: 'Mean',
  resultsMedian: 'Median',
  resultsAgreement: 'Agreement',
  resultsSpread: 'Spread',
  resultsAllAgree: 'Everyone agrees!',
  resultsAgreementOf: (agree: number, counted: number) => `${agree} of ${counted}`,

  // Story details
  storyDescription: 'Description',
  storyAcceptance: 'Acceptance criteria',
  storyEdit: 'Edit the story',
  storyTitle: 'Title',
  storySave: 'Save',
  storyCancel: 'Cancel',

  // People
  personConnected: 'online',
  personAway: 'away',
  personActions: (name: string) => `Actions for ${name}`,
  personRemove: 'Remove from the room',
  personMakeModerator: 'Make moderator',
  personMakeObserver: 'Make observer',
  personMakeVoter: 'Let vote',
  personConfirmRemove: (name: string) => `Remove ${name} from the room?`,

  // Errors of the API, by code
  'error.unknown': 'Something went wrong: try again.',
  'error.network': 'The server cannot be reached: check the connection and try again.',
  'error.validation_failed': 'Some of what was sent is not valid.',
  'error.rate_limited': 'Too many requests: wait a moment and try again.',
  'error.unauthorized': 'Please sign in again.',
  'error.forbidden': 'Only the owner of the session can do that.',
  'error.not_found': 'Not found.',
  'error.session_not_found': 'There is no such room.',
  'error.session_not_active': 'The session is not active.',
  'error.session_archived': 'The session is archived: it is read-only.',
  'error.room_full': 'The room is full.',
  'error.participant_not_found': 'You are no longer in the room: join again.',
  'error.invalid_participant_token': 'Your seat in the room is no longer valid: join again.',
  'error.participant_token_required': 'Your seat in the room is no longer valid: join again.',
  'error.observer_cannot_vote': 'Observers do not vote.',
  'error.voting_closed': 'Voting has closed.',
  'error.invalid_vote': 'That card is not in the deck.',
  'error.no_open_story': 'No story is open for votes.',
  'error.story_not_found': 'The story is gone.',
  'error.story_already_revealed': 'The votes are already revealed.',
  'error.concurrent_change': 'Someone changed this at the same moment: try again.',
  'error.invalid_credentials': 'Wrong email or password.',
  'error.service_unavailable': 'The service is not available right now: try again shortly.',
};

/** A catalog: every key of the English one, each a text or a function with the same arguments. */
export type Catalog = {
  [K in keyof typeof en]: (typeof en)[K] extends (...args: infer A) => string
    ? (...args: A) => string
    : string;
};
