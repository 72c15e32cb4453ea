import { passwordRequirements, requirementStates, type RequirementState } from '../../../domain/rules/account';

const stateText: Record<RequirementState, string> = { inactive: 'not checked yet', error: 'not met', success: 'met' };
const icon: Record<RequirementState, string> = { inactive: '○', error: '✕', success: '✓' };

/**
 * The live requirement list (spec/platform.md §5): inactive while empty, then error or success per
 * rule. Each state is in words too, not only in colour and icon.
 */
export function PasswordRequirements({ id, password }: { id: string; password: string }) {
  const states = requirementStates(password);
  return (
    <div id={id} className="requirements">
      <p className="requirements__title">Your password needs:</p>
      <ul>
        {passwordRequirements.map((rule) => (
          <li key={rule.id} className={`requirement requirement--${states[rule.id]}`} data-state={states[rule.id]}>
            <span aria-hidden="true" className="requirement__icon">
              {icon[states[rule.id]]}
            </span>{' '}
            {rule.label}
            <span className="visually-hidden"> ({stateText[states[rule.id]]})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
