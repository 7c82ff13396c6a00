/**
 * The operator console's tables keep their whole state in the URL (shareable, the back button
 * works): search, filters, a created-date range, sort and page. `parseTableParams` reads it against
 * one table's spec and clamps anything unexpected to a default, so a hand-edited or fuzzed address
 * renders the table instead of failing (docs/decisions/0068-operator-console.md).
 */
import { FALLBACK_TIME_ZONE, instantOfWallTime } from "~/lib/time-zone";

export const PAGE_SIZES = [25, 50, 100] as const;
type PageSize = (typeof PAGE_SIZES)[number];
type SortDir = "asc" | "desc";

/** Search text longer than this is cut: no email, name or id is longer. */
const MAX_SEARCH_LENGTH = 100;
/** Pages beyond this are clamped (deep offsets are slow and no operator pages that far). */
const MAX_PAGE = 10_000;

export interface FilterOption {
  value: string;
  label: string;
}

interface FilterSpec {
  /** The query-string key, e.g. 'status'. */
  key: string;
  label: string;
  options: readonly FilterOption[];
}

export interface TableSpec {
  id: string;
  title: string;
  /** What the search box looks in, for its label. */
  searchLabel: string;
  /** Sortable column ids; anything else in `sort` falls back to the default. */
  sortKeys: readonly string[];
  defaultSort: { key: string; dir: SortDir };
  filters: readonly FilterSpec[];
  /** Whether the table has a created-date range (from/to). */
  dateRange: boolean;
}

export interface TableParams {
  q: string;
  sort: string;
  dir: SortDir;
  page: number;
  size: PageSize;
  /** Only filters whose value is one of the spec's options. */
  filters: Record<string, string>;
  /** YYYY-MM-DD, inclusive: days in `timeZone`. */
  from: string | null;
  to: string | null;
  /** The operator's time zone (not in the address): the zone of the date range and of shown times. */
  timeZone: string;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day as YYYY-MM-DD, or null. */
export function parseDay(value: string | null): string | null {
  if (!value) return null;
  const m = DAY.exec(value.trim());
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== m[0]) return null;
  const year = date.getUTCFullYear();
  return year >= 2000 && year <= 2100 ? m[0] : null;
}

function parsePositiveInt(value: string | null, fallback: number, max: number): number {
  if (!value || !/^\d{1,9}$/.test(value.trim())) return fallback;
  const n = Number(value.trim());
  return n >= 1 ? Math.min(n, max) : fallback;
}

export function parseTableParams(spec: TableSpec, search: URLSearchParams, timeZone: string = FALLBACK_TIME_ZONE): TableParams {
  const q = (search.get("q") ?? "").replace(CONTROL, " ").trim().slice(0, MAX_SEARCH_LENGTH);
  const sortAsked = search.get("sort");
  const sort = sortAsked && spec.sortKeys.includes(sortAsked) ? sortAsked : spec.defaultSort.key;
  const dirAsked = search.get("dir");
  const dir: SortDir =
    dirAsked === "asc" || dirAsked === "desc" ? dirAsked : sort === spec.defaultSort.key ? spec.defaultSort.dir : "asc";
  const sizeAsked = Number(search.get("size"));
  const size = (PAGE_SIZES as readonly number[]).includes(sizeAsked) ? (sizeAsked as PageSize) : PAGE_SIZES[0];
  const filters: Record<string, string> = {};
  for (const f of spec.filters) {
    const value = search.get(f.key);
    if (value && f.options.some((o) => o.value === value)) filters[f.key] = value;
  }
  let from = spec.dateRange ? parseDay(search.get("from")) : null;
  let to = spec.dateRange ? parseDay(search.get("to")) : null;
  if (from && to && from > to) [from, to] = [to, from];
  return { q, sort, dir, page: parsePositiveInt(search.get("page"), 1, MAX_PAGE), size, filters, from, to, timeZone };
}

/**
 * The instants a day range covers in `timeZone`: from the first day's midnight there, up to (not
 * including) the midnight after the last day. A day of 23 or 25 hours (a daylight-saving change)
 * is covered whole.
 */
export function dayRangeBounds(
  from: string | null,
  to: string | null,
  timeZone: string,
): { start: Date | null; end: Date | null } {
  const midnight = (day: string, plusDays: number) => {
    const [y, m, d] = day.split("-").map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d + plusDays));
    return instantOfWallTime(
      { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: 0, minute: 0 },
      timeZone,
    );
  };
  return { start: from ? midnight(from, 0) : null, end: to ? midnight(to, 1) : null };
}

/** The query string of `params` with `changes` applied; defaults are left out so addresses stay short. */
export function tableSearch(spec: TableSpec, params: TableParams, changes: Partial<TableParams> = {}): string {
  const next = { ...params, ...changes };
  const out = new URLSearchParams();
  if (next.q) out.set("q", next.q);
  for (const f of spec.filters) if (next.filters[f.key]) out.set(f.key, next.filters[f.key]!);
  if (next.from) out.set("from", next.from);
  if (next.to) out.set("to", next.to);
  if (next.sort !== spec.defaultSort.key || next.dir !== spec.defaultSort.dir) {
    out.set("sort", next.sort);
    out.set("dir", next.dir);
  }
  if (next.size !== PAGE_SIZES[0]) out.set("size", String(next.size));
  if (next.page > 1) out.set("page", String(next.page));
  const s = out.toString();
  return s ? `?${s}` : "";
}

/** The last page for `total` rows (at least 1). */
export const pageCount = (total: number, size: number) => Math.max(1, Math.ceil(total / size));
