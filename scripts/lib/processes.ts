/** Whether a process runs: signal 0 checks without sending anything. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user (the PostgreSQL cluster's account, for one).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
