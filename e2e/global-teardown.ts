// Stops the server that global-setup.ts started (SIGTERM, then SIGKILL after 10 s) and removes its
// temporary data directory (kept when E2E_KEEP_DATA is set, e.g. to read server.log).
import { rmSync } from 'node:fs';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function globalTeardown(): Promise<void> {
  const pid = Number(process.env.E2E_SERVER_PID);
  if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) {
      console.warn(`storefront (pid ${String(pid)}) ignored SIGTERM for 10 s; killing it`);
      process.kill(pid, 'SIGKILL');
    }
  }
  const dataDir = process.env.E2E_DATA_DIR;
  if (dataDir && !process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
}
