// react-hook-form resolvers over the rules of @bookshop/rules, the module the API checks with too:
// a form refuses exactly what the server would, with the same words, and no form writes a rule again.
import type { FieldProblem } from '@bookshop/rules';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

type Found<Values extends FieldValues> =
  | { values: Values; errors: Record<string, never> }
  | { values: Record<string, never>; errors: FieldErrors<Values> };

/** Over a rule that names the field of each problem (the contact form): each message goes under its field. */
export const fieldRulesResolver =
  <Values extends FieldValues>(problems: (values: Values) => FieldProblem<keyof Values & string>[]): Resolver<Values> =>
  async (values): Promise<Found<Values>> => {
    const found = problems(values);
    if (!found.length) return { values, errors: {} };
    const errors = Object.fromEntries(found.map((problem) => [problem.field, { type: problem.code, message: problem.message }]));
    return { values: {}, errors: errors as FieldErrors<Values> };
  };

/**
 * Over a rule that gives the form's first problem as one message (spec 5's sign-up, profile and
 * password rules): it goes to `errors.root`, which the form shows as its notice.
 */
export const formRuleResolver =
  <Values extends FieldValues>(problem: (values: Values) => string | null | Promise<string | null>): Resolver<Values> =>
  async (values): Promise<Found<Values>> => {
    const message = await problem(values);
    if (!message) return { values, errors: {} };
    return { values: {}, errors: { root: { type: 'rule', message } } as FieldErrors<Values> };
  };
