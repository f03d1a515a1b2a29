import { type Static, Type } from 'typebox';
import { Body } from './common.ts';

export const ClientInfo = Type.Object(
  { firstName: Type.String(), lastName: Type.String(), phoneNumber: Type.String(), account: Type.String() },
  { $id: 'ClientInfo' },
);

const mailPreferenceFields = {
  statusEmails: Type.Boolean({ description: "An e-mail when an order's status changes (Processing, Shipped, cancelled)" }),
  backInStockEmails: Type.Boolean({ description: 'An e-mail when a book on the wishlist is back in stock' }),
};
/** Which e-mails a client gets beyond the order confirmations, which always go (beyond the spec). */
export const MailPreferences = Type.Object(mailPreferenceFields);
export const MailPreferencesBody = Body(mailPreferenceFields);

export const ClientRow = Type.Object(
  {
    id: Type.Integer(),
    firstName: Type.String(),
    lastName: Type.String(),
    phoneNumber: Type.String(),
    account: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'ClientRow' },
);

export const EmployeeRow = Type.Object(
  {
    id: Type.Integer(),
    firstName: Type.String(),
    lastName: Type.String(),
    type: Type.String(),
    gender: Type.String(),
    birthDate: Type.String({ format: 'date' }),
    email: Type.String(),
    phoneNumber: Type.String(),
    address: Type.String(),
    version: Type.Integer({ description: 'Raised whenever this information changes; a save of my own sends it back as If-Match' }),
  },
  { $id: 'EmployeeRow' },
);

const text = Type.Optional(Type.String({ maxLength: 200 }));
/**
 * An employee's person fields. Each stays optional in the schema: a missing one answers the spec's
 * 'All fields are required.' (employee-service.ts), not a schema message.
 */
const personFields = {
  firstName: text,
  lastName: text,
  gender: text,
  birthDate: text,
  email: text,
  phoneNumber: text,
  address: text,
};
export const PersonInformations = Body(personFields);
/** An employee's own person fields, and the password that a new e-mail needs from one without a second factor. */
export const OwnInformation = Body({
  ...personFields,
  currentPassword: Type.Optional(
    Type.String({ maxLength: 1000, description: 'Needed with a new e-mail when the employee has no second factor; ignored otherwise' }),
  ),
});
export const PasswordChange = Body({
  oldPassword: Type.Optional(Type.String({ maxLength: 1000 })),
  newPassword: Type.Optional(Type.String({ maxLength: 1000 })),
});
export type PersonInput = Static<typeof PersonInformations>;

/** One of my live sessions (the Account screens' list; ASVS 5.0 7.5.2). */
export const OwnSession = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    startedAt: Type.String({ format: 'date-time', description: 'When it was signed in' }),
    lastActiveAt: Type.String({ format: 'date-time', description: 'Its last signed-in call, to the minute' }),
    device: Type.Union([Type.String(), Type.Null()], {
      description: 'What it was signed in from, as "Firefox on Linux"; null when the browser did not say',
    }),
    current: Type.Boolean({ description: 'The session asking' }),
  },
  { $id: 'OwnSession' },
);

/** Sessions to end, and the account's password: ending them is asked by someone who proves it is them. */
export const EndSessions = (most: number) =>
  Body({
    // As the list gives them: a uuid's other spellings (capitals, urn:uuid:) are refused before the password is checked.
    sessionIds: Type.Array(Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' }), {
      minItems: 1,
      maxItems: most,
      uniqueItems: true,
    }),
    password: Type.Optional(Type.String({ maxLength: 1000 })),
  });
