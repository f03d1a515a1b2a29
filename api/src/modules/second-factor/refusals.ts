// The second factor's refusals (status, code, message for the screen), beside lib/refusals.ts's.
import { AppError } from '../../lib/errors.ts';

export const STEP_UP_MINUTES = 10;

export const refuseSecondFactor = {
  /** The sign-in's challenge is missing, used or older than its few minutes. */
  challengeExpired: () => new AppError(401, 'SECOND_FACTOR_EXPIRED', 'This sign-in has expired. Please sign in again.'),
  wrongCode: () => new AppError(400, 'WRONG_SECOND_FACTOR', 'That code or passkey was not accepted. Please try again.'),
  wrongSetupCode: () =>
    new AppError(
      400,
      'WRONG_SECOND_FACTOR',
      'That code does not match. Check the time on your phone, then type the code your app shows now.',
    ),
  noPendingSetup: () => new AppError(409, 'CONFLICT', 'Start the authenticator app setup first.'),
  passkeyNotRegistered: () => new AppError(400, 'WRONG_SECOND_FACTOR', 'The passkey could not be registered. Please try again.'),
  noPasskey: () => new AppError(404, 'NOT_FOUND', 'No such passkey.'),
  noFactor: () => new AppError(404, 'NOT_FOUND', 'This employee has no second factor.'),
  /** A second factor used within the last minutes is needed, and the screen asks for it. */
  stepUpRequired: () =>
    new AppError(
      403,
      'STEP_UP_REQUIRED',
      `Confirm it is you: this needs your second factor, used within the last ${STEP_UP_MINUTES} minutes.`,
    ),
  enrolmentRequired: () =>
    new AppError(
      403,
      'SECOND_FACTOR_ENROLMENT_REQUIRED',
      'Admins must set up a second factor (an authenticator app or a passkey) before anything else.',
    ),
  lastAdminFactor: () =>
    new AppError(409, 'CONFLICT', 'No Admin would have a second factor left. Add another factor first, or another Admin must set one up.'),
  resetSelf: () => new AppError(403, 'FORBIDDEN', 'Remove your own second factors on your Account screen.'),
};
