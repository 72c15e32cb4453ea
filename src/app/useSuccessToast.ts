import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { NavState } from '../lib/navState';
import { SUCCESS_TOAST_LABEL, useToast } from '../ui/Toast';

/**
 * A success message passed in navigation state is shown once as a 'Success Notification' toast
 * (spec/platform.md §2), then removed from the state so a reload does not show it again.
 */
export function useSuccessToastFromNavigation() {
  const location = useLocation();
  const navigate = useNavigate();
  const { showToast } = useToast();
  const state = (location.state ?? {}) as NavState;
  useEffect(() => {
    if (!state.successMessage) return;
    showToast({ severity: 'success', label: SUCCESS_TOAST_LABEL, message: state.successMessage });
    navigate(location, { replace: true, state: { ...state, successMessage: undefined } });
  }, [location.key]); // eslint-disable-line react-hooks/exhaustive-deps -- once per navigation, with the state it brought
}
