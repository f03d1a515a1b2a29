// The resolvers hand react-hook-form the rule module's own verdicts: a problem blocks the submit
// with the rule's message, and a clean form passes its values through unchanged.
import { checkProfile, contactProblems, FORM_MESSAGES } from '@bookshop/rules';
import { expect, it } from 'vitest';
import { fieldRulesResolver, formRuleResolver } from './rule-resolver';

const context = { fields: {}, shouldUseNativeValidation: false };

it('a one-message rule puts its message on the form (root), and passes clean values through', async () => {
  const resolve = formRuleResolver(checkProfile);
  const bad = await resolve({ firstName: 'Ann', lastName: 'Lee', phoneNumber: '123' }, undefined, context);
  // On the form (its notice) and on the field it is about (marked, and where the focus goes).
  const phone = { type: 'rule', message: FORM_MESSAGES.profilePhone };
  expect(bad.errors).toEqual({ root: phone, phoneNumber: phone });
  expect(bad.values).toEqual({});
  const good = { firstName: 'Ann', lastName: 'Lee', phoneNumber: '0771234567' };
  expect(await resolve(good, undefined, context)).toEqual({ values: good, errors: {} });
});

it('a rule with fields puts each message under its field, with the API code as its type', async () => {
  const resolve = fieldRulesResolver(contactProblems);
  const { errors } = await resolve({ name: 'Ann', email: 'ann@', message: '' }, undefined, context);
  expect(errors).toEqual({
    email: { type: 'EMAIL_INVALID', message: FORM_MESSAGES.emailInvalid },
    message: { type: 'MESSAGE_REQUIRED', message: FORM_MESSAGES.messageRequired },
  });
});
