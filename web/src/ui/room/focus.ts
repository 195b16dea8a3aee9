import { useEffect, useRef } from 'preact/hooks';

/** A place asked for that has not come (its event lost, the room changed meanwhile) is given up. */
const WAIT_MS = 10_000;

interface Wanted {
  find(): HTMLElement | null;
  /** Where the focus was when asked: the control that did the action. */
  from: Element | null;
  until: number;
  /** The room's renders when asked: only a later one shows what the action changed. */
  after: number;
}

/**
 * Moves the focus to where an action leads, once the page shows it. The button that did it (Join,
 * Reveal the votes) is disabled while it works and goes away with what it did: the focus falls to
 * <body>, where a keyboard user starts again from the top of the page (or, in a browser that keeps
 * it on the button, stays on what the button does next: the next story's reveal). What the action
 * leads to may come a moment later, with a live event: each render of the room looks for it. The
 * focus is taken only from <body> or that button, never from where the user has put it meanwhile.
 * An effect still waiting from a render made before the ask (a live event shown just before the
 * action's answer) looks at the page without the action's change, and is not asked.
 */
export function useFocusWhenShown() {
  const wanted = useRef<Wanted | null>(null);
  const renders = useRef(0);
  const render = ++renders.current;
  useEffect(() => {
    const want = wanted.current;
    if (!want || render <= want.after) return;
    const at = document.activeElement;
    const movedOn = at !== null && at !== document.body && at !== want.from;
    const found = movedOn ? null : want.find();
    if (found || movedOn || Date.now() >= want.until) wanted.current = null;
    found?.focus();
  });
  return (find: () => HTMLElement | null) => {
    wanted.current = {
      find,
      from: document.activeElement,
      until: Date.now() + WAIT_MS,
      after: renders.current,
    };
  };
}
