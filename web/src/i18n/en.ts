/**
 * The room's text in English: the catalog every other language follows (its keys and the arguments
 * of its functions). `error.<code>`: the API's error codes in words.
 */
export const en = {
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
