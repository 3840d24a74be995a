import { useId, useState } from 'preact/hooks';
import { searchPlaces, type Place } from '../map/places.ts';
import { Field } from '../ui/components.tsx';
import { t } from '../i18n/i18n.ts';

interface Props {
  label: string;
  /** The input's name, the same in every language (pickup, drop). */
  name: string;
  value: Place | null;
  onChange: (place: Place) => void;
  /** Asks that the next tap on the map set this end of the trip; without it the place is searched only. */
  onUseMap?: () => void;
  mapArmed?: boolean;
}

/** A trip's end or stop: typed and picked from the known places, or tapped on the map. */
export function PlaceInput({ label, name, value, onChange, onUseMap, mapArmed }: Props) {
  const [text, setText] = useState(value?.name ?? '');
  // A place chosen (a suggestion, a tap on the map, a reset) shows its name. Compared while rendering,
  // not in an effect: an effect runs after the field is painted and wiped what was typed at once.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value?.name ?? '');
  }
  const listId = useId();
  const matches = text && text !== value?.name ? searchPlaces(text) : [];
  return (
    <div class="stack">
      <Field label={label}>
        <input
          type="search"
          name={name}
          autocomplete="off"
          placeholder={t('place.search')}
          aria-controls={listId}
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
      </Field>
      <ul class="places" id={listId} aria-label={t('place.suggestions', { label })} hidden={matches.length === 0}>
        {matches.map((place) => (
          <li key={place.name}>
            <button type="button" class="secondary" onClick={() => onChange(place)}>
              {place.name}
            </button>
          </li>
        ))}
      </ul>
      {text && matches.length === 0 && text !== value?.name && <p class="muted flush">{onUseMap ? t('place.noMatchMap') : t('place.noMatch')}</p>}
      {onUseMap && (
        <button type="button" class="secondary" aria-pressed={mapArmed} onClick={onUseMap}>
          {t('place.setOnMap', { label: label.toLowerCase() })}
        </button>
      )}
    </div>
  );
}
