import { useState } from 'preact/hooks';
import type { AdminRidesQuery, Ride, RideStatus } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';
import { ErrorNotice, Field } from '../ui/components.tsx';
import { dateTimeOf, money } from '../ui/format.ts';
import { keysOf, RIDE_TYPE_LABELS, STATUS_LABELS } from '../ui/labels.ts';
import { usePages } from '../ui/use-pages.ts';
import { useApi } from '../ui/app-context.tsx';

type Filters = Omit<Partial<AdminRidesQuery>, 'limit' | 'cursor'>;

interface Form {
  status: RideStatus | '';
  riderId: string;
  driverId: string;
  from: string;
  to: string;
}

const blank: Form = { status: '', riderId: '', driverId: '', from: '', to: '' };

/** The form's words as the API's filters: ids as numbers, local times (datetime-local) as ISO instants. */
function filtersOf(form: Form): Filters {
  const id = (text: string) => (text.trim() ? Number(text) : undefined);
  const instant = (text: string) => (text ? new Date(text).toISOString() : undefined);
  return { status: form.status || undefined, riderId: id(form.riderId), driverId: id(form.driverId), from: instant(form.from), to: instant(form.to) };
}

/** Every ride, newest first, by status, rider, driver and booking time; each opens its timeline. */
export function RidesScreen() {
  const api = useApi();
  const [form, setForm] = useState<Form>(blank);
  const [filters, setFilters] = useState<Filters>({});
  const rides = usePages((cursor) => api.admin.rides({ ...filters, cursor }), JSON.stringify(filters));
  const change = (patch: Partial<Form>) => setForm({ ...form, ...patch });
  return (
    <section class="stack" aria-labelledby="rides-title">
      <h2 id="rides-title">{t('ops.rides.title')}</h2>
      <form
        class="card stack"
        aria-label={t('ops.rides.find')}
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(filtersOf(form));
        }}
      >
        <div class="toolbar">
          <Field label={t('ops.rides.status')}>
            <select name="status" value={form.status} onChange={(event) => change({ status: event.currentTarget.value as Form['status'] })}>
              <option value="">{t('ops.any')}</option>
              {keysOf(STATUS_LABELS).map((status) => (
                <option key={status} value={status}>
                  {STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('ops.rides.riderId')}>
            <input name="riderId" inputMode="numeric" pattern="[1-9][0-9]*" value={form.riderId} onInput={(event) => change({ riderId: event.currentTarget.value })} />
          </Field>
          <Field label={t('ops.rides.driverId')}>
            <input name="driverId" inputMode="numeric" pattern="[1-9][0-9]*" value={form.driverId} onInput={(event) => change({ driverId: event.currentTarget.value })} />
          </Field>
          <Field label={t('ops.rides.from')}>
            <input type="datetime-local" name="from" value={form.from} onInput={(event) => change({ from: event.currentTarget.value })} />
          </Field>
          <Field label={t('ops.rides.to')}>
            <input type="datetime-local" name="to" value={form.to} onInput={(event) => change({ to: event.currentTarget.value })} />
          </Field>
        </div>
        <div class="row">
          <button type="submit">{t('ops.search')}</button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setForm(blank);
              setFilters({});
            }}
          >
            {t('ops.rides.clear')}
          </button>
        </div>
      </form>
      <ErrorNotice message={rides.load.error} />
      {rides.items?.length === 0 && <p class="muted">{t('ops.rides.none')}</p>}
      <ul class="list" aria-label={t('ops.rides.found')}>
        {rides.items?.map((ride) => <RideItem key={ride.id} ride={ride} />)}
      </ul>
      {rides.cursor && (
        <button type="button" class="secondary" disabled={rides.load.busy} onClick={() => void rides.load.run(rides.cursor!)}>
          {t('ops.rides.older')}
        </button>
      )}
    </section>
  );
}

function RideItem({ ride }: { ride: Ride }) {
  return (
    <li class="card stack">
      <div class="row spread">
        <a href={`#/rides/${ride.id}`}>
          <strong>{t('ops.rideLink', { id: ride.id })}</strong>
        </a>
        <span>
          {STATUS_LABELS[ride.status]} · <strong>{money(ride.fare)}</strong>
        </span>
      </div>
      <span>
        {ride.pickupLocation ?? t('common.pinnedPoint')} → {ride.dropLocation ?? t('common.aPinnedPoint')}
      </span>
      {ride.scheduledAt && <span data-testid="scheduled-at">{t('ops.rides.aheadFor', { time: dateTimeOf(ride.scheduledAt) })}</span>}
      <span class="muted">
        {dateTimeOf(ride.createdAt)} · {RIDE_TYPE_LABELS[ride.rideType]} · {t('ops.rides.rider', { name: ride.riderName ?? '', id: ride.riderId })}
        {ride.driverId !== null && ` · ${t('ops.rides.driver', { id: ride.driverId })}`}
      </span>
    </li>
  );
}
