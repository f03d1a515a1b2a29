// What a screen reader needs of a form's refused fields: each is aria-invalid, and described by its
// own error's words (after any hint it has), while the rules refuse it.
import { useId } from 'react';
import type { FieldErrors, FieldValues, Path, RegisterOptions, UseFormRegister, UseFormReturn } from 'react-hook-form';

/** A field's registration with its error's state; `errorId`: the element that says the field's error. */
export const describedField =
  <Values extends FieldValues>(
    register: UseFormRegister<Values>,
    errors: FieldErrors<Values>,
    errorId: (field: Path<Values>) => string,
    options?: (field: Path<Values>) => RegisterOptions<Values, Path<Values>> | undefined,
  ) =>
  (field: Path<Values>, hintId?: string) => {
    const invalid = Boolean(errors[field]);
    return {
      ...register(field, options?.(field)),
      'aria-invalid': invalid,
      'aria-describedby': [hintId, invalid && errorId(field)].filter(Boolean).join(' ') || undefined,
    };
  };

/**
 * For a form whose refusal is said by a notice (the spec's one message, gone after 3 s, and on some
 * screens shared with another form): each refused field is described by a hidden text of its own
 * error instead, which stays right as long as the field is marked. Render `errorTexts` in the form.
 */
export function useDescribedFields<Values extends FieldValues>(
  { register, formState }: Pick<UseFormReturn<Values>, 'register' | 'formState'>,
  options?: (field: Path<Values>) => RegisterOptions<Values, Path<Values>> | undefined,
) {
  const formId = useId();
  const errorIdOf = (field: string) => `${formId}${field}-error`;
  const { errors } = formState;
  const refused = Object.entries(errors).filter(([field, error]) => field !== 'root' && error?.message);
  return {
    field: describedField(register, errors, errorIdOf, options),
    errorTexts: refused.map(([field, error]) => (
      // Hidden, and still read: an element named by aria-describedby is read though hidden.
      <span key={field} id={errorIdOf(field)} hidden>
        {String(error?.message)}
      </span>
    )),
  };
}
