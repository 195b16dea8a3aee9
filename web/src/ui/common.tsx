import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { describeError } from '../api/client.ts';

/** An error said where it happened, and announced. */
export function Problem({ error }: { error: string | null }) {
  return error ? (
    <p class="problem" role="alert">
      {error}
    </p>
  ) : null;
}

/** Runs an action at most once at a time, with its error kept for display. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<unknown>) => {
    if (busy) return false;
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (err) {
      setError(describeError(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

export function Field(props: { label: string; hint?: string; children: ComponentChildren }) {
  return (
    <label class="field">
      <span>{props.label}</span>
      {props.children}
      {props.hint && <small>{props.hint}</small>}
    </label>
  );
}

/** The attributes the app's inputs use. */
interface InputProps {
  name: string;
  type?: 'text' | 'email' | 'password' | 'datetime-local';
  required?: boolean;
  disabled?: boolean;
  maxLength?: number;
  minLength?: number;
  autoComplete?: string;
}

/** A labelled text input bound to a value. */
export function TextField(
  props: { label: string; hint?: string; value: string; onValue(v: string): void } & InputProps,
) {
  const { label, hint, value, onValue, type = 'text', maxLength, ...input } = props;
  return (
    <Field label={label} hint={hint}>
      {/* (Preact types each input type apart; these few share their attributes.) */}
      <input
        {...input}
        type={type as 'text'}
        value={value}
        onInput={(e) => {
          const typed = e.currentTarget.value;
          const kept = maxLength === undefined ? typed : upTo(typed, Number(maxLength));
          if (kept !== typed) e.currentTarget.value = kept;
          onValue(kept);
        }}
      />
    </Field>
  );
}

/**
 * A text cut to `max` characters, as the API counts them (an emoji is one). An input's own maxlength
 * counts UTF-16 units, an emoji two: it would stop a title of emoji at half what the API takes.
 */
export const upTo = (text: string, max: number) => {
  const characters = [...text];
  return characters.length <= max ? text : characters.slice(0, max).join('');
};

/** A checkbox with its label, bound to a value. */
export function CheckField(
  props: { label: string; checked: boolean; onValue(v: boolean): void } & InputProps,
) {
  const { label, checked, onValue, ...input } = props;
  return (
    <label class="check">
      <input
        name={input.name}
        disabled={input.disabled}
        type="checkbox"
        checked={checked}
        onChange={(e) => onValue(e.currentTarget.checked)}
      />
      {label}
    </label>
  );
}

/**
 * A horizontal bar chart drawn in SVG (no inline styles, so the page's CSP needs none), described
 * in words for screen readers.
 */
export function BarChart({ title, rows }: { title: string; rows: Array<{ value: string; count: number }> }) {
  if (rows.length === 0) return null;
  const max = Math.max(...rows.map((r) => r.count));
  const describe = rows.map((r) => `${r.value}: ${r.count}`).join(', ');
  const ROW = 28;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg
        role="img"
        aria-label={`${title}: ${describe}`}
        viewBox={`0 0 300 ${rows.length * ROW}`}
        width="100%"
        preserveAspectRatio="xMinYMin meet"
      >
        {rows.map((r, i) => (
          <g key={r.value} transform={`translate(0 ${i * ROW})`}>
            <text x="44" y="18" text-anchor="end" class="chart-label">
              {r.value}
            </text>
            <rect
              x="52"
              y="4"
              height="18"
              rx="3"
              width={Math.max(2, (r.count / max) * 210)}
              class="chart-bar"
            />
            <text x={58 + (r.count / max) * 210} y="18" class="chart-count">
              {r.count}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}
