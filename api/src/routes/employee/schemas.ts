import { Type } from 'typebox';

export const security = [{ employeeSession: [] }];
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
  },
  { $id: 'EmployeeRow' },
);
const text = Type.Optional(Type.String({ maxLength: 200 }));
export const PersonInformations = Type.Object({
  firstName: text,
  lastName: text,
  gender: text,
  birthDate: text,
  email: text,
  phoneNumber: text,
  address: text,
});
export const PasswordChange = Type.Object({
  oldPassword: Type.Optional(Type.String({ maxLength: 1000 })),
  newPassword: Type.Optional(Type.String({ maxLength: 1000 })),
});
/** Optional paging of lists whose spec path has no page parameters. */
export const OptionalPaging = Type.Object({
  pageNumber: Type.Integer({ minimum: 1, default: 1 }),
  pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
