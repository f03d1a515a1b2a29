import { type FormEvent, useState } from 'react';

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
