// The verdicts both the forms and the API act on: a problem in the spec's words, or the values
// the form stands for, trimmed, which the API stores as they are.
import { describe, expect, it } from 'vitest';
import {
  checkProfile,
  checkResetRequest,
  checkSignUp,
  contactProblems,
  FORM_MESSAGES,
  isFilled,
  PERSON_NAME_MAX,
  passwordChangeProblem,
  SHIPPING_ADDRESS_MAX,
  shippingAddressProblem,
} from './forms.ts';

describe('checkSignUp', () => {
  it('asks for every field first, then an Algerian phone', () => {
    expect(checkSignUp({ firstName: 'Ann', lastName: ' ', phoneNumber: '0771234567', account: 'a@b.co', password: 'x' }).problem).toBe(
      FORM_MESSAGES.allFieldsRequired,
    );
    expect(checkSignUp({ firstName: 'Ann', lastName: 'Lee', phoneNumber: '0812345678', account: 'a@b.co', password: 'x' }).problem).toBe(
      FORM_MESSAGES.signUpPhone,
    );
  });

  it('gives the values trimmed, except the password, whose spaces are part of it', () => {
    expect(
      checkSignUp({ firstName: ' Ann ', lastName: 'Lee ', phoneNumber: ' 0771234567', account: ' a@b.co ', password: ' pass word ' }),
    ).toEqual({
      problem: null,
      values: { firstName: 'Ann', lastName: 'Lee', phoneNumber: '0771234567', account: 'a@b.co', password: ' pass word ' },
    });
  });
});

it('checkProfile asks for every field, then a valid Algerian number, and gives the values trimmed', () => {
  expect(checkProfile({ firstName: 'Ann', lastName: 'Lee' }).problem).toBe(FORM_MESSAGES.allFieldsRequired);
  expect(checkProfile({ firstName: 'Ann', lastName: 'Lee', phoneNumber: '123' }).problem).toBe(FORM_MESSAGES.profilePhone);
  expect(checkProfile({ firstName: ' Ann', lastName: 'Lee ', phoneNumber: '0551234567 ' })).toEqual({
    problem: null,
    values: { firstName: 'Ann', lastName: 'Lee', phoneNumber: '0551234567' },
  });
});

it('isFilled refuses what is missing or only spaces', () => {
  expect([undefined, null, '', '   ', 'a'].map(isFilled)).toEqual([false, false, false, false, true]);
});

it('checkResetRequest asks for an e-mail, a valid one, and gives it trimmed and in lower case', () => {
  expect(checkResetRequest({ account: ' ' }).problem).toBe(FORM_MESSAGES.emailRequired);
  expect(checkResetRequest({ account: 'nadia@' }).problem).toBe(FORM_MESSAGES.emailInvalid);
  expect(checkResetRequest({ account: ' Nadia@Example.COM ' })).toEqual({ problem: null, values: { account: 'nadia@example.com' } });
});

it('an e-mail is a plain address: no angle brackets, control character or second address a mailer would act on', () => {
  for (const account of ['<a@b.co>', 'a@b.co>', 'a@b.co\u0001', 'a@b.co\u007f', 'a@b.co,c@d.co', 'a@b.co;c@d.co'])
    expect(checkResetRequest({ account }).problem, account).toBe(FORM_MESSAGES.emailInvalid);
  expect(checkResetRequest({ account: 'Ann.Lee+books@Bücher.example' }).problem).toBeNull();
});

it("a shipping address and a name past their limits get the screen's words, not a schema message naming a field", () => {
  expect(shippingAddressProblem(` ${'a'.repeat(SHIPPING_ADDRESS_MAX)} `)).toBeNull();
  expect(shippingAddressProblem('a'.repeat(SHIPPING_ADDRESS_MAX + 1))).toBe(FORM_MESSAGES.shippingAddressTooLong);
  expect(checkProfile({ firstName: 'a'.repeat(PERSON_NAME_MAX + 1), lastName: 'Lee', phoneNumber: '0551234567' }).problem).toBe(
    FORM_MESSAGES.nameTooLong,
  );
  expect(checkProfile({ firstName: 'a'.repeat(PERSON_NAME_MAX), lastName: 'Lee', phoneNumber: '0551234567' }).problem).toBeNull();
  // The same at sign-up: a longer name signed up with could never be saved on My Account.
  expect(
    checkSignUp({
      firstName: 'Ann',
      lastName: 'b'.repeat(PERSON_NAME_MAX + 1),
      phoneNumber: '0551234567',
      account: 'a@b.co',
      password: 'x',
    }).problem,
  ).toBe(FORM_MESSAGES.nameTooLong);
});

it("the contact form's name is a person's name: at most PERSON_NAME_MAX characters, as on every form", () => {
  const contact = (name: string) => contactProblems({ name, email: 'a@b.co', message: 'Hello' });
  expect(contact('a'.repeat(PERSON_NAME_MAX))).toEqual([]);
  expect(contact(` ${'a'.repeat(PERSON_NAME_MAX)} `)).toEqual([]);
  expect(contact('a'.repeat(PERSON_NAME_MAX + 1))).toEqual([
    { field: 'name', code: 'NAME_TOO_LONG', message: FORM_MESSAGES.contactNameTooLong },
  ]);
});

describe("a problem names the fields it is about, in the form's order, for the form to mark", () => {
  const signUp = { firstName: 'Ann', lastName: 'Lee', phoneNumber: '0771234567', account: 'a@b.co', password: 'a long phrase' };
  it('sign-up: the blank ones, then the phone, then the names too long', () => {
    expect(checkSignUp({ ...signUp, lastName: ' ', password: '', firstName: undefined }).fields).toEqual([
      'firstName',
      'lastName',
      'password',
    ]);
    expect(checkSignUp({ ...signUp, phoneNumber: '0812345678' }).fields).toEqual(['phoneNumber']);
    const long = 'a'.repeat(PERSON_NAME_MAX + 1);
    expect(checkSignUp({ ...signUp, lastName: long }).fields).toEqual(['lastName']);
    expect(checkSignUp({ ...signUp, firstName: long, lastName: long }).fields).toEqual(['firstName', 'lastName']);
    expect(checkSignUp(signUp).fields).toBeUndefined();
  });
  it('the profile, a reset request and a password change', () => {
    expect(checkProfile({ firstName: 'Ann', lastName: 'Lee' }).fields).toEqual(['phoneNumber']);
    expect(checkProfile({ firstName: 'Ann', lastName: 'Lee', phoneNumber: '123' }).fields).toEqual(['phoneNumber']);
    expect(checkProfile({ firstName: 'a'.repeat(PERSON_NAME_MAX + 1), lastName: 'Lee', phoneNumber: '0551234567' }).fields).toEqual([
      'firstName',
    ]);
    expect(checkResetRequest({ account: 'nadia@' }).fields).toEqual(['account']);
    expect(passwordChangeProblem({ oldPassword: ' ', newPassword: '' })).toEqual({
      problem: FORM_MESSAGES.passwordsMissing,
      fields: ['oldPassword', 'newPassword'],
    });
    expect(passwordChangeProblem({ oldPassword: 'old one', newPassword: '' }).fields).toEqual(['newPassword']);
    expect(passwordChangeProblem({ oldPassword: 'old one', newPassword: 'new one' })).toEqual({ problem: null });
  });
});
