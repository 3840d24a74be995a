import type { ComponentChildren } from 'preact';
import { t } from '../i18n/i18n.ts';

const STARS = [1, 2, 3, 4, 5] as const;

/** A rating of one to five stars, as radio buttons: riders rate drivers and drivers rate riders the same way. */
export function Stars({ legend, value, onChange }: { legend: ComponentChildren; value: number; onChange: (value: number) => void }) {
  return (
    <fieldset class="stack bare">
      <legend>{legend}</legend>
      <div class="stars">
        {STARS.map((star) => (
          <label key={star} title={t('stars.of', { star })}>
            <input type="radio" name="rating" value={star} checked={value === star} onChange={() => onChange(star)} />
            <span aria-hidden="true">{star <= value ? '★' : '☆'}</span>
            <span class="visually-hidden">{t('stars.of', { star })}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
