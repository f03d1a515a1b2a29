// react-hook-form resolvers over the rules of @bookshop/rules, the module the API checks with too:
// a form refuses exactly what the server would, with the same words, and no form writes a rule again.
import type { FieldProblem, FormProblem } from '@bookshop/rules';
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
 * password rules): it goes to `errors.root`, which the form shows as its notice, and each field it is
 * about gets it too, so the form marks them invalid and react-hook-form puts the focus on the first.
 * The form's `context` (what the rule needs beyond the values, as the account a password may not be)
 * is passed on.
 */
export const formRuleResolver =
  <Values extends FieldValues, Context = undefined>(
    problemOf: (values: Values, context: Context) => FormProblem<keyof Values & string> | Promise<FormProblem<keyof Values & string>>,
  ): Resolver<Values, Context> =>
  async (values, context): Promise<Found<Values>> => {
    const { problem, fields = [] } = await problemOf(values, context as Context);
    if (problem === null) return { values, errors: {} };
    const error = { type: 'rule', message: problem };
    return { values: {}, errors: Object.fromEntries([['root', error], ...fields.map((field) => [field, error])]) as FieldErrors<Values> };
  };
