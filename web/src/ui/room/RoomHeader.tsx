import { useState } from 'preact/hooks';
import type { StreamStatus } from '../../api/room-stream.ts';
import { roomPath } from '../../navigation.ts';

const LABELS: Record<StreamStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  offline: 'Offline: will catch up when back',
  gone: 'This room is gone',
};

/** Whether the room is live, said to screen readers when it changes. */
export function StreamBadge({ status }: { status: StreamStatus }) {
  return (
    <span class={`badge badge-${status}`} role="status" data-status={status}>
      {LABELS[status]}
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
        Room code <strong class="code">{code}</strong>
      </label>
      <input id="share-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      <button type="button" onClick={copy}>
        {copied ? 'Copied' : 'Copy link'}
      </button>
    </div>
  );
}
