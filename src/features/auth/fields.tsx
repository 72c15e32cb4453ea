import { TextInput } from '../../ui/TextInput';
import type { FieldErrors } from '../../../domain/rules/collect';

interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors: FieldErrors;
  hint?: string;
}

/** The e-mail address field every auth card has. */
export function EmailField({ autoComplete = 'username', ...props }: FieldProps & { autoComplete?: 'username' | 'email' }) {
  return <TextInput {...props} errors={props.errors[props.id]} inputMode="email" autoComplete={autoComplete} maxLength={254} />;
}

/** A password field with show/hide. */
export function PasswordField({ autoComplete, ...props }: FieldProps & { autoComplete: 'current-password' | 'new-password' }) {
  return <TextInput {...props} errors={props.errors[props.id]} type="password" autoComplete={autoComplete} maxLength={256} />;
}
