// Rules of spec section 5, shared by every route that applies them (and mirrored by the web forms).

export const ALGERIAN_PHONE = /^0[567]\d{8}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const CONTACT_MESSAGE_MAX = 50;
export const SHIPPING_ADDRESS_MIN = 6;
/** bcrypt reads only the first 72 bytes; a longer password would be silently truncated, so it is refused. */
export const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_MIN_LENGTH = 6;

export const isBlank = (value: string | null | undefined) => !value || value.trim() === '';
