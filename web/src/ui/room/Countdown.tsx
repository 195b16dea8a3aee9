import { useEffect, useRef, useState } from 'preact/hooks';
import { startCountdown, stopCountdown, type RoundRunner } from '../../api/endpoints.ts';
import { t } from '../../i18n/i18n.ts';
import { announcement, clock, secondsLeft, type RoundCountdown } from '../../room/countdown.ts';
import { Problem, useAction } from '../common.tsx';
import { beep, setSoundOn, soundOn } from './beep.ts';

/** The lengths offered, in seconds; any other (5..3600) as a custom one. */
const LENGTHS = [30, 60, 120, 300];

/** Re-renders a few times a second while a countdown runs, so the clock turns on the second. */
function useTick(active: boolean) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

const inWords = (seconds: number) => t().duration(Math.floor(seconds / 60), seconds % 60);

/**
 * The open round's countdown as everyone sees it: the time left, what happens at zero, a short
 * sound at zero (which each person can turn off), and what a screen reader is told at a few marks.
 */
export function CountdownClock({ countdown }: { countdown: RoundCountdown }) {
  const now = useTick(true);
  const left = secondsLeft(countdown, now);
  const [sound, setSound] = useState(soundOn);
  // The sound plays when this page sees zero come, not when it opens on a countdown already over.
  const before = useRef(left);
  useEffect(() => {
    if (before.current > 0 && left === 0 && sound) beep();
    before.current = left;
  }, [left]);
  const m = t();
  const said = announcement(countdown.seconds, left);
  return (
    <div class={`countdown${left === 0 ? ' countdown-zero' : ''}`} data-testid="countdown">
      <p class="countdown-clock">
        <span role="timer" aria-label={m.countdownLeft} data-testid="countdown-clock">
          {clock(left)}
        </span>{' '}
        <span class="muted">
          {left === 0
            ? m.countdownTimeUp
            : countdown.at_zero === 'reveal'
              ? m.countdownRevealsAtZero
              : m.countdownClosesAtZero}
        </span>
      </p>
      <p class="sr-only" aria-live="polite" data-testid="countdown-announced">
        {said.kind === 'zero'
          ? m.countdownTimeUp
          : said.kind === 'start'
            ? m.countdownStarted(inWords(said.seconds))
            : m.countdownRemaining(inWords(said.seconds))}
      </p>
      <label class="check countdown-sound">
        <input
          type="checkbox"
          name="countdown-sound"
          checked={sound}
          onChange={(e) => {
            setSound(e.currentTarget.checked);
            setSoundOn(e.currentTarget.checked);
          }}
        />
        {m.countdownSound}
      </label>
    </div>
  );
}

/** The start and stop of the open round's countdown, for whoever runs the round. */
export function CountdownControls(props: {
  code: string;
  by: RoundRunner;
  running: boolean;
  onChanged(): void;
}) {
  const [length, setLength] = useState<string>('60');
  const [custom, setCustom] = useState('90');
  const [atZero, setAtZero] = useState<'reveal' | 'close'>('reveal');
  const action = useAction();
  const m = t();
  const seconds = length === 'custom' ? Number(custom) : Number(length);
  const valid = Number.isInteger(seconds) && seconds >= 5 && seconds <= 3600;
  const start = (e: Event) => {
    e.preventDefault();
    if (!valid) return;
    void action.run(async () => {
      await startCountdown(props.code, props.by, { seconds, at_zero: atZero });
      props.onChanged();
    });
  };
  return (
    <form class="countdown-controls" onSubmit={start}>
      <fieldset>
        <legend>{m.countdownLegend}</legend>
        <div class="row">
          <label class="field">
            <span>{m.countdownLength}</span>
            <select name="countdown-length" value={length} onChange={(e) => setLength(e.currentTarget.value)}>
              {LENGTHS.map((s) => (
                <option key={s} value={String(s)}>
                  {s < 60 ? m.shortSeconds(s) : m.shortMinutes(s / 60)}
                </option>
              ))}
              <option value="custom">{m.countdownCustom}</option>
            </select>
          </label>
          {length === 'custom' && (
            <label class="field">
              <span>{m.countdownSeconds}</span>
              <input
                type="number"
                name="countdown-seconds"
                min={5}
                max={3600}
                required
                value={custom}
                onInput={(e) => setCustom(e.currentTarget.value)}
              />
            </label>
          )}
          <label class="field">
            <span>{m.countdownAtZero}</span>
            <select
              name="countdown-at-zero"
              value={atZero}
              onChange={(e) => setAtZero(e.currentTarget.value as 'reveal' | 'close')}
            >
              <option value="reveal">{m.countdownAtZeroReveal}</option>
              <option value="close">{m.countdownAtZeroClose}</option>
            </select>
          </label>
        </div>
        <div class="row">
          <button type="submit" disabled={action.busy || !valid}>
            {m.countdownStart}
          </button>
          {props.running && (
            <button
              type="button"
              disabled={action.busy}
              onClick={() =>
                void action.run(async () => {
                  await stopCountdown(props.code, props.by);
                  props.onChanged();
                })
              }
            >
              {m.countdownStop}
            </button>
          )}
        </div>
      </fieldset>
      <Problem error={action.error} />
    </form>
  );
}
