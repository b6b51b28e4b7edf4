// Mounts the Radix toaster the first time a toast is raised, so pages without toasts never load it.
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useState } from 'react';
import { $toasts } from '../stores/toast.ts';

const Toaster = lazy(() => import('./Toaster.tsx'));

export default function Notifications() {
  const toasts = useStore($toasts, { ssr: 'initial' });
  const [needed, setNeeded] = useState(false);
  // Once mounted it stays, so closing toasts can animate out and F8 keeps working.
  if (toasts.length > 0 && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
