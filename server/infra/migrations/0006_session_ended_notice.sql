-- Every ended session (sign-out, a password reset, an account removed, any delete by hand) is
-- announced, so each app instance forgets it from its in-memory session cache at once.
CREATE FUNCTION announce_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_ended', OLD.token_hash);
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_announce_ended AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION announce_session_ended();
