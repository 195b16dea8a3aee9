import { t } from '../../i18n/i18n.ts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, describeError } from '../../api/client.ts';
import { listStories, readRoom, roomStreamPath } from '../../api/endpoints.ts';
import { openRoomStream, type StreamStatus } from '../../api/room-stream.ts';
import { seatTokenOf } from '../../api/seat.ts';
import type { Session } from '../../api/types.ts';
import {
  applyRoomEvent,
  initialRoomState,
  withSnapshot,
  type RoomEvent,
  type RoomState,
} from '../../room/room-state.ts';
import { readSeat } from '../../storage.ts';

/**
 * The events carry what changed, so the room reads itself again only where they cannot tell it all:
 * after a reconnection, after the moderator's own changes, when a story moved or went (the others'
 * positions close up without events of their own), and when a story's texts changed (the events
 * name the story, not its description). A moment later, once for a burst.
 */
const SETTLE_MS = 300;
const TEXTS_AND_PLACE = ['position', 'description', 'acceptance_criteria'];
const reordering = (type: string, data: unknown) =>
  type === 'story.deleted' ||
  (type === 'story.updated' &&
    ((data as { changed?: string[] }).changed ?? []).some((c) => TEXTS_AND_PLACE.includes(c)));

/**
 * A first read that failed (the network down, a unit restarting) is tried again after these waits,
 * the last one over and over: a room left open recovers once the API answers, without a reload. The
 * stream coming (back) on tries at once.
 */
const FIRST_READ_RETRY_MS = [1_000, 2_000, 4_000, 8_000, 15_000];

/**
 * A room as this browser knows it: read once (one request, which also says where the live stream
 * starts), patched by the live events, read again where they cannot tell it all. `onRemoved`: the moderator removed this browser's seat.
 */
export function useRoomFeed(code: string, token: string | null, onRemoved: () => void) {
  const [state, setState] = useState<RoomState | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [status, setStatus] = useState<StreamStatus>('connecting');
  /** The session alone, which the join screen needs, before the rest of the room has been read. */
  const [preview, setPreview] = useState<Session | null>(null);
  /** The events that come before the first read is done (null once it is). */
  const early = useRef<RoomEvent[] | null>([]);
  const settle = useRef<ReturnType<typeof setTimeout>>(undefined);
  const retry = useRef<{ timer?: ReturnType<typeof setTimeout>; attempt: number }>({ attempt: 0 });
  const stream = useRef<{ close(): void; reconnect(): void }>(undefined);
  /** Whether the room is still shown: a read that comes back after it was left opens no stream. */
  const shown = useRef(false);

  const apply = (event: RoomEvent) => {
    if (early.current) early.current.push(event);
    else setState((prev) => (prev ? applyRoomEvent(prev, event) : prev));
  };

  const refresh = async () => {
    clearTimeout(retry.current.timer);
    retry.current.timer = undefined;
    try {
      // A seat taken while the room is read is not in what is read: only the one kept before is checked.
      const kept = readSeat(code);
      const room = await readRoom(code, token);
      if (early.current) setPreview(room.session);
      // The stories unit did not answer in time: its own read of them.
      const stories = room.stories ?? (await listStories(code)).stories;
      const { session, participants, round } = room;
      setState((prev) => {
        if (prev) return withSnapshot(prev, { session, participants, stories, round });
        // Events that came while the room was read apply on top of it.
        const first = (early.current ?? []).reduce(
          applyRoomEvent,
          initialRoomState(session, participants, stories, round),
        );
        early.current = null;
        return first;
      });
      // The stream starts where the read stands: every event since it comes first.
      if (shown.current) stream.current ??= follow(room.last_event_id);
      setMissing(null);
      if (kept && readSeat(code)?.id === kept.id && !participants.some((p) => p.id === kept.id)) onRemoved();
    } catch (err) {
      // Once the room is open, a failed fresh read changes nothing: the next event or reconnection reads again.
      if (err instanceof ApiError && err.status === 404) setMissing(t().roomMissing(code));
      else if (early.current) {
        setMissing(t().roomRetrying(describeError(err)));
        const waits = FIRST_READ_RETRY_MS;
        const wait = waits[Math.min(retry.current.attempt++, waits.length - 1)]!;
        retry.current.timer = setTimeout(() => void refresh(), wait);
      }
    }
  };
  const settleSoon = () => {
    clearTimeout(settle.current);
    settle.current = setTimeout(() => void refresh(), SETTLE_MS);
  };

  const follow = (from: string) =>
    openRoomStream(
      roomStreamPath(code),
      {
        onStatus: (next) => {
          setStatus(next);
          // The API answers again: a first read waiting for its next try goes now.
          if (next === 'live' && retry.current.timer !== undefined) {
            retry.current.attempt = 0;
            void refresh();
          }
        },
        onResumed: settleSoon,
        onEvent: (type, data) => {
          apply({ type, data });
          if (
            type === 'participant.left' &&
            (data as { participant?: { id?: number } }).participant?.id === readSeat(code)?.id
          )
            onRemoved();
          if (reordering(type, data)) settleSoon();
        },
      },
      from,
      () => seatTokenOf(code),
    );

  useEffect(() => {
    shown.current = true;
    void refresh();
    return () => {
      shown.current = false;
      stream.current?.close();
      stream.current = undefined;
      clearTimeout(settle.current);
      clearTimeout(retry.current.timer);
    };
  }, [code, token]);

  /** This browser took a seat: its stream goes again with the seat's token (the room sees it connected). */
  const seated = () => stream.current?.reconnect();

  return { state, setState, missing, status, preview, apply, settleSoon, seated };
}
