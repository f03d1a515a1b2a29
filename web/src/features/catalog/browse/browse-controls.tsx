import './browse.css';
import { type BrowseState, hasFilters, type BrowseSort as Sort } from '@bookshop/rules/browse';
import type { ReactNode } from 'react';
import type { Facets } from './browse-api';

const SORT_LABELS: Record<Sort, string> = {
  relevance: 'Relevance',
  bestselling: 'Bestselling',
  'top-rated': 'Top rated',
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
};

const money = (n: number) => `$${n % 1 ? n.toFixed(2) : n}`;
const priceLabel = ({ min, max }: { min: number | null; max: number | null }) =>
  min === null ? `Under ${money((max ?? 0) + 0.01)}` : max === null ? `${money(min)} and up` : `${money(min)} to ${money(max)}`;
const yearLabel = ({ from, to }: { from: number | null; to: number | null }) =>
  from === null ? `Before ${(to ?? 0) + 1}` : to === null ? `${from} and later` : `${from} to ${to}`;

interface Choice {
  key: string;
  label: string;
  count?: number;
  selected: boolean;
  /** The state this choice leads to. */
  next: BrowseState;
}

/** One dimension as radio buttons, "Any" first; a value that would leave no book says so and cannot be chosen. */
function ChoiceGroup({
  name,
  legend,
  choices,
  any,
  estimated,
  onChange,
}: {
  name: string;
  legend: string;
  choices: Choice[];
  any: BrowseState;
  /** The counts are estimates (a large category's sample). */
  estimated: boolean;
  onChange: (s: BrowseState) => void;
}) {
  const nothingChosen = !choices.some((c) => c.selected);
  return (
    <fieldset className="facet">
      <legend>{legend}</legend>
      <label>
        <input type="radio" name={name} checked={nothingChosen} onChange={() => onChange(any)} /> Any
      </label>
      {choices.map((c) => {
        // An estimated zero may still hide a few books: only an exact one closes a value.
        const none = c.count === 0 && !c.selected && !estimated;
        return (
          <label key={c.key} className={none ? 'facet-none' : undefined}>
            <input type="radio" name={name} checked={c.selected} disabled={none} onChange={() => onChange(c.next)} /> {c.label}
            {c.count !== undefined && (
              <span className="muted"> ({none ? 'none' : `${estimated ? 'about ' : ''}${c.count.toLocaleString('en-US')}`})</span>
            )}
          </label>
        );
      })}
    </fieldset>
  );
}

/**
 * The sort and filters of a category page or of search results, each value with how many books it
 * would leave (facet counts; "about" when the server estimated them). Every change starts again at
 * page 1.
 */
export function BrowseControls({
  state,
  facets,
  total,
  totalEstimated,
  sorts,
  relevanceLabel,
  onChange,
  children,
}: {
  state: BrowseState;
  facets: Facets | undefined;
  total: number | undefined;
  totalEstimated: boolean;
  sorts: Sort[];
  /** What the default order is called here: a search's best match first, a category's most rated. */
  relevanceLabel: string;
  onChange: (next: BrowseState) => void;
  children?: ReactNode;
}) {
  const set = (patch: Partial<BrowseState>) => {
    const next = { ...state, ...patch, page: undefined };
    onChange(Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) as BrowseState);
  };
  const without = (...keys: (keyof BrowseState)[]) => Object.fromEntries(keys.map((k) => [k, undefined])) as Partial<BrowseState>;
  const about = facets?.estimated ? 'about ' : '';
  return (
    <aside className="browse-controls" aria-label="Sort and filters">
      <p className="muted" aria-live="polite">
        {total === undefined
          ? 'Counting books...'
          : `${totalEstimated ? 'About ' : ''}${total.toLocaleString('en-US')} book${total === 1 ? '' : 's'}`}
        {facets?.estimated && ' (counts below are estimates)'}
      </p>
      <label className="sort">
        Sort by{' '}
        <select
          value={state.sort ?? 'relevance'}
          onChange={(e) => set({ sort: e.target.value === 'relevance' ? undefined : (e.target.value as Sort) })}
        >
          {sorts.map((s) => (
            <option key={s} value={s}>
              {s === 'relevance' ? relevanceLabel : SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      {hasFilters(state) && (
        <button type="button" onClick={() => onChange({ ...(state.sort ? { sort: state.sort } : {}) })}>
          Clear filters
        </button>
      )}
      {children}
      {facets && (
        <>
          <label className="facet">
            <input type="checkbox" checked={state.inStock ?? false} onChange={(e) => set({ inStock: e.target.checked || undefined })} /> In
            stock only
            <span className="muted">
              {' '}
              ({about}
              {facets.inStock.toLocaleString('en-US')})
            </span>
          </label>
          <ChoiceGroup
            name="price"
            legend="Price"
            any={{ ...state, ...without('priceMin', 'priceMax', 'page') }}
            estimated={facets.estimated}
            onChange={onChange}
            choices={facets.price.map((band) => ({
              key: `${band.min}-${band.max}`,
              label: priceLabel(band),
              count: band.count,
              selected:
                (state.priceMin ?? null) === band.min &&
                (state.priceMax ?? null) === band.max &&
                (state.priceMin !== undefined || state.priceMax !== undefined),
              next: { ...state, page: undefined, priceMin: band.min ?? undefined, priceMax: band.max ?? undefined },
            }))}
          />
          <ChoiceGroup
            name="rating"
            legend="Rating"
            any={{ ...state, ...without('minRating', 'page') }}
            estimated={facets.estimated}
            onChange={onChange}
            choices={facets.rating.map((r) => ({
              key: String(r.min),
              label: `${r.min} stars and up`,
              count: r.count,
              selected: state.minRating === r.min,
              next: { ...state, page: undefined, minRating: r.min },
            }))}
          />
          <ChoiceGroup
            name="year"
            legend="Published"
            any={{ ...state, ...without('yearFrom', 'yearTo', 'page') }}
            estimated={facets.estimated}
            onChange={onChange}
            choices={facets.year.map((band) => ({
              key: `${band.from}-${band.to}`,
              label: yearLabel(band),
              count: band.count,
              selected:
                (state.yearFrom ?? null) === band.from &&
                (state.yearTo ?? null) === band.to &&
                (state.yearFrom !== undefined || state.yearTo !== undefined),
              next: { ...state, page: undefined, yearFrom: band.from ?? undefined, yearTo: band.to ?? undefined },
            }))}
          />
          <ChoiceGroup
            name="author"
            legend="Author"
            any={{ ...state, ...without('authorId', 'page') }}
            estimated={facets.estimated}
            onChange={onChange}
            choices={[
              ...(state.authorId !== undefined && !facets.authors.some((a) => a.id === state.authorId)
                ? [{ id: state.authorId, name: 'The chosen author', count: undefined }]
                : []),
              ...facets.authors,
            ].map((a) => ({
              key: String(a.id),
              label: a.name,
              count: a.count as number | undefined,
              selected: state.authorId === a.id,
              next: { ...state, page: undefined, authorId: a.id },
            }))}
          />
        </>
      )}
    </aside>
  );
}
