import { useEffect, useId, useState } from 'preact/hooks';
import { searchPlaces, type Place } from '../map/places.ts';
import { Field } from '../ui/components.tsx';

interface Props {
  label: string;
  value: Place | null;
  onChange: (place: Place) => void;
  /** Asks that the next tap on the map set this end of the trip; without it the place is searched only. */
  onUseMap?: () => void;
  mapArmed?: boolean;
}

/** A trip's end or stop: typed and picked from the known places, or tapped on the map. */
export function PlaceInput({ label, value, onChange, onUseMap, mapArmed }: Props) {
  const [text, setText] = useState(value?.name ?? '');
  useEffect(() => setText(value?.name ?? ''), [value]);
  const listId = useId();
  const matches = text && text !== value?.name ? searchPlaces(text) : [];
  return (
    <div class="stack">
      <Field label={label}>
        <input
          type="search"
          name={label.toLowerCase()}
          autocomplete="off"
          placeholder="Search a place"
          aria-controls={listId}
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
      </Field>
      <ul class="places" id={listId} aria-label={`${label} suggestions`} hidden={matches.length === 0}>
        {matches.map((place) => (
          <li key={place.name}>
            <button type="button" class="secondary" onClick={() => onChange(place)}>
              {place.name}
            </button>
          </li>
        ))}
      </ul>
      {text && matches.length === 0 && text !== value?.name && <p class="muted flush">No known place by that name{onUseMap ? ': tap the map instead' : ''}.</p>}
      {onUseMap && (
        <button type="button" class="secondary" aria-pressed={mapArmed} onClick={onUseMap}>
          Set the {label.toLowerCase()} on the map
        </button>
      )}
    </div>
  );
}
