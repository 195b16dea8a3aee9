/**
 * The short sound at a countdown's zero, made with Web Audio (no file to load), and whether the
 * person wants it (kept in the browser; on unless turned off).
 */
const KEY = 'pp.sound';

export function soundOn(): boolean {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    return true;
  }
}
export function setSoundOn(on: boolean) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    // Storage is off: the choice lasts as long as the page.
  }
}

let context: AudioContext | undefined;

/** Two short tones. A browser that allows no sound before a click on the page plays none. */
export function beep() {
  try {
    context ??= new AudioContext();
    void context.resume();
    const at = context.currentTime;
    for (const [i, hz] of [880, 660].entries()) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = 'sine';
      osc.frequency.value = hz;
      const start = at + i * 0.18;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.16);
      osc.connect(gain).connect(context.destination);
      osc.start(start);
      osc.stop(start + 0.17);
    }
  } catch {
    // No Web Audio here: the countdown shows zero all the same.
  }
}
