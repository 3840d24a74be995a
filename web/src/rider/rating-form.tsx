import { useState } from 'preact/hooks';
import type { Ride } from '../api/types.ts';
import { ErrorNotice, Field, Notice } from '../ui/components.tsx';
import { Stars } from '../ui/stars.tsx';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';

/** The rider rates the driver once the ride is completed. */
export function RatingForm({ ride, onRide }: { ride: Ride; onRide: (ride: Ride) => void }) {
  const api = useApi();
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const send = useAction(async () => onRide(await api.rides.feedback(ride.id, { rating, comment: comment.trim() || null })));
  if (ride.riderRating !== null) {
    return <Notice>Thanks! You rated this ride {ride.riderRating} out of 5.</Notice>;
  }
  return (
    <form
      class="card stack"
      onSubmit={(event) => {
        event.preventDefault();
        void send.run();
      }}
    >
      <Stars legend={<h3>How was your ride?</h3>} value={rating} onChange={setRating} />
      <Field label="Comment (optional)">
        <textarea name="comment" maxLength={600} rows={2} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
      </Field>
      <ErrorNotice message={send.error} />
      <button type="submit" disabled={rating === 0 || send.busy}>
        {send.busy ? 'Sending…' : 'Send rating'}
      </button>
    </form>
  );
}
