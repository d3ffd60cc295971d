// The spec servers: one per Playwright worker, each with its own port, data directory, SQLite
// database and admin account, so workers never see each other's rows. global-setup.ts starts
// them and hands their details to the workers in E2E_SERVERS; a worker uses the one of its
// parallel index (TEST_PARALLEL_INDEX, set by Playwright in each worker process).

/** Workers, and so servers: two fill both cores of the CI machine (E2E_WORKERS overrides). */
export const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);

export interface SpecServer {
  baseURL: string;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  pid: number;
}

export function specServers(): SpecServer[] {
  const raw = process.env.E2E_SERVERS;
  if (!raw) throw new Error('E2E_SERVERS is not set: run the specs through global-setup.ts');
  return JSON.parse(raw) as SpecServer[];
}

/** The server of the worker this runs in. */
export function currentServer(): SpecServer {
  const servers = specServers();
  const index = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
  return servers[index % servers.length];
}
