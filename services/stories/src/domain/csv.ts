/**
 * CSV per RFC 4180: every field quoted (quotes doubled), CRLF line ends. A field that a spreadsheet
 * would run as a formula (= + - @, tab, CR first) is prefixed with an apostrophe (OWASP CSV injection).
 */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

function field(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}
