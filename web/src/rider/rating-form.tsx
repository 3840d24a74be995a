import { useState } from 'preact/hooks';
import type { Ride } from '../api/types.ts';
import { ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { Stars } from '../ui/stars.tsx';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';
import { t } from '../i18n/i18n.ts';

/** The rider rates the driver once the ride is completed. */
export function RatingForm({ ride, onRide }: { ride: Ride; onRide: (ride: Ride) => void }) {
  const api = useApi();
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const send = useAction(async () => onRide(await api.rides.feedback(ride.id, { rating, comment: comment.trim() || null })));
  if (ride.riderRating !== null) {
    return <Notice>{t('rating.thanks', { rating: ride.riderRating })}</Notice>;
  }
  return (
    <form
      class="card stack"
      onSubmit={(event) => {
        event.preventDefault();
        void send.run();
      }}
    >
      <Stars legend={<h3>{t('rating.how')}</h3>} value={rating} onChange={setRating} />
      <Field label={t('rating.comment')}>
        <textarea name="comment" maxLength={600} rows={2} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
      </Field>
      <ErrorNotice message={send.error} />
      <button type="submit" disabled={rating === 0 || send.busy}>
        {send.busy ? t('rating.sending') : t('rating.send')}
      </button>
    </form>
  );
}
