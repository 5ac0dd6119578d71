/**
 * The most events one page of `events:list` holds (shared/ipc-contract.ts). `navi events` asks for pages
 * this size: a busy day's log (2,000 events is a day of 20 active projects) comes in one answer, one
 * round trip to a running Navi. Apart from the contract so that the CLI's front, which holds no zod,
 * can read it.
 */
export const EVENTS_PAGE_MAX = 5000
