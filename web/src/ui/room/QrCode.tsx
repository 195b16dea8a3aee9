import { encode } from 'uqr';

/**
 * A text (the room's link) as a QR code in SVG: one path of the dark modules, with a quiet zone of
 * four modules as the standard asks, black on white whatever the page's colours.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const qr = encode(text, { ecc: 'M', border: 4 });
  let d = '';
  qr.data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      class="share-qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shape-rendering="crispEdges"
      data-size={qr.size}
    >
      <rect width={qr.size} height={qr.size} fill="#ffffff" />
      <path d={d} fill="#000000" />
    </svg>
  );
}
