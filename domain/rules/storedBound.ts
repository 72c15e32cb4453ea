/**
 * The stored answers of one application may not grow past this size (JSON characters as sent; the
 * database keeps it on the stored jsonb). A leaf module: the server's schema imports it without the
 * catalogue.
 */
export const STORED_ANSWERS_MAX_CHARS = 512 * 1024;
