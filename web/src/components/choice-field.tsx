import type { UseFormRegisterReturn } from 'react-hook-form';

/** A labelled choice among fixed options, registered with a react-hook-form. */
export function ChoiceField({ label, choices, field }: { label: string; choices: readonly string[]; field: UseFormRegisterReturn }) {
  return (
    <label>
      {label}
      <select {...field}>
        {choices.map((choice) => (
          <option key={choice}>{choice}</option>
        ))}
      </select>
    </label>
  );
}
