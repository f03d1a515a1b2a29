import { type Static, Type } from 'typebox';
import { UNSUBSCRIBE_LISTS } from '../modules/mail/unsubscribe.ts';
import { PositiveInt } from './common.ts';

export const DeadLetter = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Union(['order_placed', 'order_status', 'back_in_stock', 'contact_received', 'password_changed'].map((k) => Type.Literal(k))),
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

export const UnsubscribeQuery = Type.Object(
  {
    client: PositiveInt,
    list: Type.Union(UNSUBSCRIBE_LISTS.map((l) => Type.Literal(l))),
    token: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);
export type UnsubscribeQueryType = Static<typeof UnsubscribeQuery>;
