import { type Static, Type } from 'typebox';
import { MAIL_KINDS } from '../modules/mail/mail-templates.ts';
import { UNSUBSCRIBE_LISTS } from '../modules/mail/unsubscribe.ts';
import { PositiveInt } from './common.ts';

export const DeadLetter = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Enum(MAIL_KINDS, { type: 'string' }),
    clientId: Type.Union([Type.Integer(), Type.Null()]),
    employeeId: Type.Union([Type.Integer(), Type.Null()]),
    orderId: Type.Union([Type.Integer(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    attempts: Type.Integer({ description: 'Tries made before it was given up' }),
    deadAt: Type.String({ format: 'date-time' }),
    lastError: Type.Union([Type.String(), Type.Null()], { description: "The mail server's last answer" }),
  },
  { $id: 'DeadLetter' },
);
export type DeadLetterType = Static<typeof DeadLetter>;

export const UnsubscribeQuery = Type.Object(
  {
    client: PositiveInt,
    list: Type.Union(UNSUBSCRIBE_LISTS.map((l) => Type.Literal(l))),
    token: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);
export type UnsubscribeQueryType = Static<typeof UnsubscribeQuery>;
