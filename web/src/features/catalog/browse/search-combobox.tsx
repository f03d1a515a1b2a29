import { wantsSuggestions } from '@bookshop/rules/browse';
import './browse.css';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../lib/paths';
import { storage } from '../../../lib/storage';
import { useSuggestions } from './browse-api';

interface Option {
  key: string;
  label: string;
  detail: string;
  to: string;
}

/**
 * The top bar's search box (spec 2.2), as a WAI-ARIA combobox with a list of suggestions (authors and
 * books, at most 8) once 2 letters are typed: Down and Up move through them, Enter opens the one
 * chosen (or searches the text when none is), Escape closes the list. Typing asks the server once it
 * pauses, and a request for text since changed is cancelled.
 */
export function SearchCombobox() {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const listId = useId();
  const { data } = useSuggestions(text);
  const options: Option[] =
    wantsSuggestions(text) && data
      ? [
          ...data.authors.map((a) => ({ key: `a${a.id}`, label: a.name, detail: 'Author', to: paths.author(a.id, a.name) })),
          ...data.books.map((b) => ({ key: `b${b.id}`, label: b.name, detail: b.authorName, to: paths.book(b.id, b.name) })),
        ]
      : [];
  const expanded = open && options.length > 0;
  const optionId = (i: number) => `${listId}-${i}`;

  const choose = (option: Option) => {
    setOpen(false);
    setActive(-1);
    navigate(option.to);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (expanded && active >= 0 && options[active]) return choose(options[active]);
    const q = text.trim();
    if (!q) return; // empty input is ignored (spec 2.2)
    setOpen(false);
    storage.setSearchQuery(q);
    navigate(paths.searchResult, { state: { q } });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!options.length) return;
      e.preventDefault();
      setOpen(true);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => {
        if (!expanded) return step === 1 ? 0 : options.length - 1;
        // Positions 0..n-1 are the options and n is the text itself, so the list wraps through it.
        const from = i < 0 ? options.length : i;
        return (from + step + options.length + 1) % (options.length + 1);
      });
    } else if (e.key === 'Escape' && expanded) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  };
  // -1 and options.length both mean "the text itself": Down from the last option comes back to it.
  const activeIndex = active >= 0 && active < options.length ? active : -1;

  return (
    <search className="search">
      <form onSubmit={submit}>
        <div className="combobox">
          <input
            type="search"
            role="combobox"
            aria-label="Search books"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={expanded && activeIndex >= 0 ? optionId(activeIndex) : undefined}
            autoComplete="off"
            placeholder="Search titles or authors"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setOpen(true);
              setActive(-1);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setOpen(false)}
            onFocus={() => setOpen(true)}
          />
          <div id={listId} role="listbox" tabIndex={-1} aria-label="Suggestions" className="suggestions" hidden={!expanded}>
            {options.map((option, i) => (
              <div
                key={option.key}
                id={optionId(i)}
                role="option"
                tabIndex={-1}
                aria-selected={i === activeIndex}
                // Chosen on mousedown, before the input's blur closes the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(option);
                }}
              >
                {option.label} <span className="muted">{option.detail}</span>
              </div>
            ))}
          </div>
        </div>
        <button type="submit">Search</button>
      </form>
    </search>
  );
}
