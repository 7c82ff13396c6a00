import type { Database } from "../db/client.server";

/** Background jobs (lead delivery): being written (issue 5). */
export async function startJobs(_database: Database): Promise<void> {}

export async function stopJobs(): Promise<void> {}
