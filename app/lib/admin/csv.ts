/**
 * CSV for the console's exports (RFC 4180: comma separated, CRLF lines, quotes doubled). A cell a
 * spreadsheet would read as a formula (starting with = + - @, or a tab or carriage return that
 * hides one) is prefixed with a single quote, so an email or a name typed by a visitor cannot run
 * in the operator's spreadsheet (OWASP "CSV injection").
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "string" ? value : String(value);
  // Numbers are the server's own (cents, counts): a negative number stays a number.
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: readonly CsvValue[]) => `${cells.map(csvCell).join(",")}\r\n`;
