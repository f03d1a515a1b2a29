// Spec section 5's form rules and their messages: the web forms check them before sending, and the
// API checks them again before writing, so a screen and the server always say the same thing.

export const ALGERIAN_PHONE = /^0[567]\d{8}$/;
/**
 * A plain address: no space, no control character, and none of `<>,;` (an address list's and a
 * display name's marks), which a mailer drops or splits on, so `<name@example.com>` would be delivered
 * to name@example.com while counted as another mailbox.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it refuses.
export const EMAIL = /^[^\s@<>,;\x00-\x1f\x7f]+@[^\s@<>,;\x00-\x1f\x7f]+\.[^\s@<>,;\x00-\x1f\x7f]+$/;
export const CONTACT_MESSAGE_MAX = 50;
/** A review's words, at most (beyond the spec). */
export const REVIEW_MAX_LENGTH = 1000;
/** The most units one copy may hold in stock: the copy form's, a restock's and an import's bound. */
export const STOCK_MAX = 1_000_000;
/** The highest Low Stock threshold an Admin may set. */
export const LOW_STOCK_THRESHOLD_MAX = 100_000;
/** A passkey's name, at most. */
export const PASSKEY_NAME_MAX = 60;
/** The largest id a row can have (the tables' ids are PostgreSQL's int4), and so the largest the API takes in a path. */
export const MAX_ROW_ID = 2_147_483_647;
/** Whether a number could be a row's id: a back-office search by id skips asking for any other (none has it). */
export const isRowId = (id: number) => Number.isInteger(id) && id >= 1 && id <= MAX_ROW_ID;
export const SHIPPING_ADDRESS_MIN = 6;
export const SHIPPING_ADDRESS_MAX = 500;
/** A client's first or last name, at most. */
export const PERSON_NAME_MAX = 100;
/** The choices of the back-office's employee forms, in the order they offer them. */
export const GENDERS = ['Male', 'Female'] as const;
export const EMPLOYEE_ROLES = ['Admin', 'Seller'] as const;
/**
 * Employees the back-office lists at most (the spec's list has no pages): the first ones by number. A shop
 * of more would page them; the screen says so when the list is full, rather than leave the rest unseen.
 */
export const EMPLOYEES_LISTED = 1000;

export const FORM_MESSAGES = {
  allFieldsRequired: 'All fields are required.',
  signUpPhone: 'Phone number must be Algerian and start with 05, 06, or 07.',
  profilePhone: 'Phone number must be a valid Algerian number (e.g. 07XXXXXXXX).',
  nameRequired: 'Name is required',
  contactNameTooLong: `Name must be ${PERSON_NAME_MAX} characters or less`,
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  messageRequired: 'Message is required',
  messageTooLong: `Message must be ${CONTACT_MESSAGE_MAX} characters or less`,
  shippingAddress: 'Please enter a valid shipping address.',
  shippingAddressTooLong: `Please keep the shipping address to ${SHIPPING_ADDRESS_MAX} characters or less.`,
  nameTooLong: `First and last names must be ${PERSON_NAME_MAX} characters or less.`,
  passwordsMissing: 'Please enter both current and new password.',
  invalidLogin: 'Invalid account or password.',
  /** Add to Cart when the cart already holds the copy's whole stock. */
  outOfStock: 'product is out of stock.',
  // A forgotten password (beyond the spec). The answer to a request is the same whether or not a
  // client uses the e-mail, so it tells no one which e-mails have accounts.
  resetRequested: 'If a client account uses this e-mail, we have sent it a link to choose a new password.',
  newPasswordRequired: 'Please enter a new password.',
  passwordsDiffer: 'The two passwords do not match.',
  passwordReset: 'Your password has been changed. Please log in with your new password.',
  resetNotForEmployees: 'No client account uses this e-mail. Employees: please ask an Admin to reset your password.',
} as const;

export const isBlank = (value: string | null | undefined) => !value || value.trim() === '';

/** Not blank, as a type guard: a value that passes is a string with something in it. */
export const isFilled = (value: string | null | undefined): value is string => !isBlank(value);

/**
 * A form's first problem and the fields it is about, which the form marks as invalid (and the focus goes
 * to the first of them); or none. The fields are named as the form's values are.
 */
export type FormProblem<Field extends string> = { problem: string; fields: Field[] } | { problem: null; fields?: undefined };

/** A form's verdict: its first problem and its fields, or the values it stands for (text trimmed). */
export type Checked<Values> =
  | { problem: string; fields: (keyof Values & string)[]; values?: undefined }
  | { problem: null; fields?: undefined; values: Values };

/** The names of the fields left blank, in the order given. */
const blankOf = <Field extends string>(input: Partial<Record<Field, string>>, fields: Field[]) =>
  fields.filter((field) => !isFilled(input[field]));

/** Which of a person's names are longer than a name may be. */
const tooLongNames = (names: { firstName: string; lastName: string }) =>
  (['firstName', 'lastName'] as const).filter((field) => names[field].trim().length > PERSON_NAME_MAX);

export interface FieldProblem<Field extends string> {
  field: Field;
  /** The API's error code for it. */
  code: string;
  message: string;
}

/** The contact form's problems, at most one per field, in the form's order; none when it can be sent. */
export function contactProblems(input: { name?: string; email?: string; message?: string }) {
  const { name, email, message } = input;
  const problems: FieldProblem<'name' | 'email' | 'message'>[] = [];
  if (!isFilled(name)) problems.push({ field: 'name', code: 'NAME_REQUIRED', message: FORM_MESSAGES.nameRequired });
  // A person's name, as on every form that takes one: kept until the retention's end, and shown to the Admins.
  else if (name.trim().length > PERSON_NAME_MAX)
    problems.push({ field: 'name', code: 'NAME_TOO_LONG', message: FORM_MESSAGES.contactNameTooLong });
  if (!isFilled(email)) problems.push({ field: 'email', code: 'EMAIL_REQUIRED', message: FORM_MESSAGES.emailRequired });
  else if (!EMAIL.test(email.trim())) problems.push({ field: 'email', code: 'EMAIL_INVALID', message: FORM_MESSAGES.emailInvalid });
  if (!isFilled(message)) problems.push({ field: 'message', code: 'MESSAGE_REQUIRED', message: FORM_MESSAGES.messageRequired });
  else if (message.trim().length > CONTACT_MESSAGE_MAX) {
    problems.push({ field: 'message', code: 'MESSAGE_TOO_LONG', message: FORM_MESSAGES.messageTooLong });
  }
  return problems;
}

interface PersonFields {
  firstName?: string;
  lastName?: string;
  phoneNumber?: string;
}

type Person = { firstName: string; lastName: string; phoneNumber: string };

/** Sign-up's verdict (the password's own rules are in password.ts). */
export function checkSignUp(
  input: PersonFields & { account?: string; password?: string },
): Checked<Person & { account: string; password: string }> {
  const { firstName, lastName, phoneNumber, account, password } = input;
  if (!(isFilled(firstName) && isFilled(lastName) && isFilled(phoneNumber) && isFilled(account) && isFilled(password))) {
    // In the order the sign-up form shows them.
    const blank = blankOf(input, ['firstName', 'lastName', 'account', 'password', 'phoneNumber']);
    return { problem: FORM_MESSAGES.allFieldsRequired, fields: blank };
  }
  if (!ALGERIAN_PHONE.test(phoneNumber.trim())) return { problem: FORM_MESSAGES.signUpPhone, fields: ['phoneNumber'] };
  // The profile's limit: a longer name signed up with could never be saved on My Account again.
  const tooLong = tooLongNames({ firstName, lastName });
  if (tooLong.length) return { problem: FORM_MESSAGES.nameTooLong, fields: tooLong };
  // A password is taken as typed: its spaces are part of it.
  return {
    problem: null,
    values: { firstName: firstName.trim(), lastName: lastName.trim(), phoneNumber: phoneNumber.trim(), account: account.trim(), password },
  };
}

/** My Account's profile: its verdict. */
export function checkProfile(input: PersonFields): Checked<Person> {
  const { firstName, lastName, phoneNumber } = input;
  if (!(isFilled(firstName) && isFilled(lastName) && isFilled(phoneNumber))) {
    return { problem: FORM_MESSAGES.allFieldsRequired, fields: blankOf(input, ['firstName', 'lastName', 'phoneNumber']) };
  }
  if (!ALGERIAN_PHONE.test(phoneNumber.trim())) return { problem: FORM_MESSAGES.profilePhone, fields: ['phoneNumber'] };
  const tooLong = tooLongNames({ firstName, lastName });
  if (tooLong.length) return { problem: FORM_MESSAGES.nameTooLong, fields: tooLong };
  return { problem: null, values: { firstName: firstName.trim(), lastName: lastName.trim(), phoneNumber: phoneNumber.trim() } };
}

/** A password change's first check, before the new password's own rules (password.ts): both are given. */
export function passwordChangeProblem(input: { oldPassword?: string; newPassword?: string }): FormProblem<'oldPassword' | 'newPassword'> {
  const blank = blankOf(input, ['oldPassword', 'newPassword']);
  return blank.length ? { problem: FORM_MESSAGES.passwordsMissing, fields: blank } : { problem: null };
}

/** Checkout's address: the problem, or null. */
export function shippingAddressProblem(address: string | undefined): string | null {
  const length = address?.trim().length ?? 0;
  if (length < SHIPPING_ADDRESS_MIN) return FORM_MESSAGES.shippingAddress;
  return length > SHIPPING_ADDRESS_MAX ? FORM_MESSAGES.shippingAddressTooLong : null;
}

/** Forgot password's request: the e-mail's problem, or its value trimmed and in lower case. */
export function checkResetRequest(input: { account?: string }): Checked<{ account: string }> {
  if (!isFilled(input.account)) return { problem: FORM_MESSAGES.emailRequired, fields: ['account'] };
  const account = input.account.trim().toLowerCase();
  if (!EMAIL.test(account)) return { problem: FORM_MESSAGES.emailInvalid, fields: ['account'] };
  return { problem: null, values: { account } };
}
