/**
 * The requests the web room (web/src/api) makes for one person, step by step, as the browser sends
 * them through the gateway: for tests about what a room full of people costs.
 */
import { publicApi } from './public-api.ts';

export interface Answer {
  status: number;
  headers: Headers;
}

/** One person in the web room: each step the requests the page makes, every answer kept. */
export function webRoomVisit(base: string, code: string) {
  const client = publicApi(base);
  const answers: Answer[] = [];
  const room = `/sessions/${encodeURIComponent(code.toUpperCase())}` as const;
  let seat: { id: number; token: string } | undefined;
  let stream: AbortController | undefined;
  let resume: Record<string, string> = {};
  /** The live stream, with the seat's token once there is one (which marks the participant connected). */
  const follow = async () => {
    stream?.abort();
    stream = new AbortController();
    const res = await fetch(`${base}${room}/events`, {
      headers: { accept: 'text/event-stream', ...resume, ...seatHeaders() },
      signal: stream.signal,
    });
    answers.push(res);
  };
  /** What the web sends with every request for the room once it holds a seat. */
  const seatHeaders = (): Record<string, string> => (seat ? { 'x-participant-token': seat.token } : {});
  const kept = async <T extends Answer>(res: Promise<T>) => {
    const answer = await res;
    answers.push(answer);
    return answer;
  };
  /** The room's read in one request: session, participants, stories, round (room-feed's refresh). */
  const read = () =>
    kept(client.get(`${room}/room`, { headers: seatHeaders() })) as Promise<
      Answer & { body: { last_event_id?: string | null } }
    >;

  return {
    answers,
    /**
     * Opening /room/{code}: the room's read, then the live stream from where the read stands (the page
     * and its files are not API requests).
     */
    async openRoomPage() {
      const { body } = await read();
      resume = body.last_event_id ? { 'last-event-id': body.last_event_id } : {};
      await follow();
    },
    /** The join form: a name, then the seat kept for the room, and the live stream again with it. */
    async join(name: string) {
      const res = await kept(client.post(`${room}/join`, { body: { name } }));
      const participant = (res as { body: { participant: { id: number; token: string } } }).body.participant;
      seat = { id: participant.id, token: participant.token };
      await follow();
    },
    /** A card picked: the vote, with the seat's token. */
    vote: (value: string) =>
      kept(
        client.post(`${room}/vote`, {
          body: { participant_id: seat!.id, vote: value },
          headers: seatHeaders(),
        }),
      ),
    /**
     * The room reads itself again where the events cannot tell it all (after a reconnection, a story
     * moved or gone): here after every reveal, the most the web would read.
     */
    readAfterReveal: () => read(),
    /** Leaving the page: the stream ends. */
    leave: () => stream?.abort(),
  };
}
