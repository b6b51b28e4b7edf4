// /account's alert switches (docs/product.md, "Favourites and alerts"): safety alerts about saved
// items (on by default) and price drops, each its own checkbox, saved as it changes. Demo mode
// sends no email, so it shows nothing.
import { useEffect, useState } from 'react';
import type { AlertSettings } from '../../../api/contract/favourites.ts';
import { errorMessage } from '../../lib/api.ts';
import { changeAlertSettings, loadAlertSettings } from '../../stores/saved-searches.ts';

const SWITCHES: { key: keyof AlertSettings; label: string; hint: string }[] = [
  {
    key: 'safety',
    label: 'Safety alerts about items I saved',
    hint: 'An email at once when an item you saved is taken off after a confirmed product recall, with the official notice and what to do.',
  },
  {
    key: 'priceDrops',
    label: 'Price drops on items I saved',
    hint: 'An email when an item you saved becomes 10% or more cheaper. Needs your email address confirmed.',
  },
];

export default function AlertSwitches({ className }: { className: string }) {
  const [settings, setSettings] = useState<AlertSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    loadAlertSettings()
      .then(setSettings)
      .catch((e: unknown) => setError(errorMessage(e)));
  }, []);

  async function change(key: keyof AlertSettings, value: boolean) {
    if (!settings || saving) return;
    const before = settings;
    setSettings({ ...settings, [key]: value });
    setSaving(true);
    setError(null);
    try {
      setSettings(await changeAlertSettings({ [key]: value }));
    } catch (e) {
      setSettings(before);
      setError(`Could not change it: ${errorMessage(e)}`);
    } finally {
      setSaving(false);
    }
  }

  return (
    <section aria-labelledby="alerts-heading" className={className}>
      <h2 id="alerts-heading" className="text-ink text-xl font-bold">
        Alerts about saved items
      </h2>
      <p className="text-muted mt-2">
        Saved searches have their own switches on{' '}
        <a href="/favourites" className="text-brand-dark underline underline-offset-4">
          your favourites page
        </a>
        .
      </p>
      <div className="mt-4 space-y-4" aria-busy={settings === null || undefined}>
        {SWITCHES.map(({ key, label, hint }) => (
          <label key={key} className="flex items-start gap-3">
            <input
              type="checkbox"
              className="accent-brand mt-1 h-5 w-5"
              checked={settings?.[key] ?? false}
              disabled={settings === null}
              onChange={(e) => void change(key, e.target.checked)}
              aria-describedby={`alert-${key}-hint`}
            />
            <span>
              <span className="text-ink font-medium">{label}</span>
              <span id={`alert-${key}-hint`} className="text-muted block text-sm">
                {hint}
              </span>
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p role="alert" className="mt-3 rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}
    </section>
  );
}
