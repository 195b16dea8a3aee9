import { t } from '../../i18n/i18n.ts';
import { useState } from 'preact/hooks';
import type { StreamStatus } from '../../api/room-stream.ts';
import { roomPath } from '../../navigation.ts';
import { QrCode } from './QrCode.tsx';

const LABELS = (): Record<StreamStatus, string> => {
  const m = t();
  return {
    connecting: m.streamConnecting,
    live: m.streamLive,
    reconnecting: m.streamReconnecting,
    offline: m.streamOffline,
    gone: m.streamGone,
  };
};

/** Whether the room is live, said to screen readers when it changes. */
export function StreamBadge({ status }: { status: StreamStatus }) {
  return (
    <span class={`badge badge-${status}`} role="status" data-status={status}>
      {LABELS()[status]}
    </span>
  );
}

/** The room's link, to copy and send. */
export function ShareLink({ code }: { code: string }) {
  const link = `${location.origin}${roomPath(code)}`;
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      (document.getElementById('share-link') as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div class="share">
      <label for="share-link">
        {t().roomCode} <strong class="code">{code}</strong>
      </label>
      <input id="share-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      <button type="button" onClick={copy}>
        {copied ? t().copied : t().copyLink}
      </button>
      <QrCode text={link} label={t().qrCode} />
    </div>
  );
}
