import { useEffect, useState } from 'react';

/** "14 minutes", "1 minute", "less than a minute". */
export function minutesLeft(until: string | null, now: number): string {
  const minutes = Math.floor(((until ? Date.parse(until) : now) - now) / 60_000);
  if (minutes < 1) return 'less than a minute';
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** The clock the Edit buttons and the edit box read, ticking while anything of the viewer's can be edited. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}
