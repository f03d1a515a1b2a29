import { type FormEvent, useEffect, useState } from 'react';

export function SearchBar({
  placeholder,
  onSearch,
  onReset,
  searched = null,
}: {
  placeholder: string;
  onSearch: (text: string) => void;
  onReset: () => void;
  /** The search the screen shows (from its address, after a reload): the field starts with it. */
  searched?: string | null;
}) {
  const [text, setText] = useState(searched ?? '');
  // Back or Forward to another search (or none) shows its text, not the last one typed.
  useEffect(() => setText(searched ?? ''), [searched]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(text);
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <input aria-label={placeholder} placeholder={placeholder} value={text} onChange={(e) => setText(e.target.value)} />
      <button type="submit">Search</button>
      <button
        type="button"
        onClick={() => {
          setText('');
          onReset();
        }}
      >
        Reset
      </button>
    </form>
  );
}
