import { t } from '../../i18n/i18n.ts';
import { useEffect, useRef } from 'preact/hooks';
import { isCardKey, pickByKeys } from '../../room/keys.ts';

/** Typing `1` may be the start of `13`: the pick waits this long for the next key. */
const KEY_PAUSE_MS = 600;

/** The card the keyboard comes to in the deck shown (the vote, else the first one), if it can be picked. */
export const focusableCard = () =>
  document.querySelector<HTMLElement>('.cards [role=radio][tabindex="0"]:not(:disabled)');

const typing = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

/**
 * The deck as cards: a radio group (one card is the vote), reachable with Tab, moved through with
 * the arrow keys, picked with Enter or Space, or from anywhere on the page by typing the card's
 * number (see keys.ts).
 */
export function Cards(props: {
  deck: string[];
  selected: string | undefined;
  disabled: boolean;
  onPick(card: string): void;
}) {
  const { deck, selected, disabled, onPick } = props;
  const group = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    if (disabled) return;
    let typed = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      const { card } = pickByKeys(deck, typed);
      typed = '';
      if (card !== undefined) pick.current(card);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || !isCardKey(e.key)) return;
      clearTimeout(timer);
      const { card, pending } = pickByKeys(deck, typed + e.key);
      typed = pending;
      if (card !== undefined && !pending) pick.current(card);
      else if (pending) timer = setTimeout(settle, KEY_PAUSE_MS);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('keydown', onKey);
    };
  }, [deck.join('\n'), disabled]);

  const move = (e: KeyboardEvent) => {
    const keys: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    const step = keys[e.key];
    if (step === undefined) return;
    e.preventDefault();
    const cards = [...(group.current?.querySelectorAll<HTMLButtonElement>('[role=radio]') ?? [])];
    const at = cards.indexOf(document.activeElement as HTMLButtonElement);
    cards[(at + step + cards.length) % cards.length]?.focus();
  };

  const focusable = selected !== undefined && deck.includes(selected) ? selected : deck[0];
  return (
    <div
      class="cards"
      role="radiogroup"
      aria-label={t().yourEstimate}
      aria-disabled={disabled}
      ref={group}
      onKeyDown={move}
    >
      {deck.map((card) => (
        <button
          key={card}
          type="button"
          role="radio"
          class="card"
          aria-checked={card === selected}
          tabIndex={card === focusable ? 0 : -1}
          disabled={disabled}
          onClick={() => onPick(card)}
        >
          {card === 'coffee' ? <span aria-label={t().coffeeBreak}>☕</span> : card}
        </button>
      ))}
    </div>
  );
}
