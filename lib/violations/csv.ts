/**
 * CSV cells as spreadsheets expect them (RFC 4180 quoting), with a guard against formula
 * injection: a cell an agent can influence (a tool name, a message quoting its arguments) that
 * starts with = + - @ (or a tab or carriage return, which some spreadsheets skip before one)
 * would run as a formula when the file is opened, so it is prefixed with a single quote.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: (string | number | boolean | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
