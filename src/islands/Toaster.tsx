import { useStore } from '@nanostores/react';
import * as ToastPrimitive from '@radix-ui/react-toast';
import { TOAST_ACTION_DURATION_MS, TOAST_DURATION_MS } from '../config.ts';
import { $toasts, dismissToast } from '../stores/toast.ts';
import { CloseIcon } from '../components/icons.tsx';

/**
 * Renders the toasts of src/stores/toast.ts. Mount once per page (`<Toaster client:idle />`).
 * Radix announces each toast in a live region; F8 moves focus to the notifications.
 */
export default function Toaster() {
  // A toast raised before this island hydrated appears right after hydration, not during it.
  const toasts = useStore($toasts, { ssr: 'initial' });
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
      {toasts.map(({ id, title, description, variant = 'default', action, closeButton = true, open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          duration={action ? TOAST_ACTION_DURATION_MS : undefined}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
          className={`pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg transition-transform data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none ${
            variant === 'destructive'
              ? 'border-red-700 bg-red-50 text-red-900'
              : 'border-sand text-ink bg-white'
          }`}
        >
          <div className="grid flex-1 gap-1">
            {title && <ToastPrimitive.Title className="text-sm font-semibold">{title}</ToastPrimitive.Title>}
            {description && (
              <ToastPrimitive.Description className="text-sm">{description}</ToastPrimitive.Description>
            )}
          </div>
          {action && (
            <ToastPrimitive.Action
              altText={action.altText}
              onClick={action.onClick}
              className="shrink-0 self-center rounded-md border border-current px-3 py-1.5 text-sm font-medium hover:bg-black/5"
            >
              {action.label}
            </ToastPrimitive.Action>
          )}
          {closeButton && (
            <ToastPrimitive.Close
              aria-label="Close notification"
              className="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100"
            >
              <CloseIcon className="h-4 w-4" />
            </ToastPrimitive.Close>
          )}
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        hotkey={['F8']}
        className="fixed top-0 right-0 z-[100] m-0 flex max-h-screen w-full list-none flex-col gap-2 p-4 outline-none sm:top-auto sm:bottom-0 sm:max-w-[420px]"
      />
    </ToastPrimitive.Provider>
  );
}
