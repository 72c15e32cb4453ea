import { partnerConfig } from '../config';
import { checkbox, documentField, equals, radio, text, textarea } from './build';
import { yesNo, type GroupDef } from './types';

/** The prompt of the comment fields asks for date, circumstances and reflection (spec/form.md §5). */
const reflectionHint = 'Give the date, describe the circumstances, and reflect on what you learned from it.';

export const finalStepsGroups: GroupDef[] = [
  {
    id: 'conduct',
    page: 'final-steps',
    title: 'Disciplinary History',
    fields: [
      radio('conviction', 'Have you ever been convicted of a misdemeanor, felony or other crime?', yesNo, { required: true }),
      textarea('conviction_comment', 'Please explain.', { hint: reflectionHint, showWhen: [equals('conviction', 'Y')], required: true }),
      radio('suspended', 'Have you ever been suspended or expelled from a school?', yesNo, { required: true }),
      textarea('suspended_comment', 'Please explain.', { hint: reflectionHint, showWhen: [equals('suspended', 'Y')], required: true }),
    ],
  },
  {
    id: 'additional',
    page: 'final-steps',
    title: 'Additional Information',
    description: 'Anything else you would like the admissions committee to know. Optional.',
    gate: { kind: 'button', prompt: 'Is there anything else you would like us to know?', buttonLabel: 'Add additional information' },
    tabs: {
      id: 'additional_info_tabs',
      label: 'How to give additional information',
      tabs: [
        { id: 'upload', label: 'Upload a document', keys: ['additional_info_doc'] },
        { id: 'write', label: 'Write it here', keys: ['additional_info_essay'] },
      ],
    },
    fields: [
      documentField('additional_info_doc', 'Upload a document', { hint: 'PNG, JPEG, PDF or DOCX, up to 1 MB.', readerLabel: 'Additional information (a document)' }),
      textarea('additional_info_essay', 'Additional information', { maxLength: partnerConfig.character_limit }),
    ],
  },
  {
    id: 'agreement',
    page: 'final-steps',
    title: 'Agreement and Signature',
    description: `I certify that the information in this application is complete, true and my own work. I understand that ${partnerConfig.name} may withdraw an offer of admission if it is not.`,
    fields: [
      checkbox('legal_agree', 'I agree to the above statements.', { required: true }),
      radio('counselor_waiver_request', 'Do you waive your right to see the recommendations written for you?', yesNo, { required: true }),
      text('signature', 'Full Legal Name', { required: true, autoComplete: 'name', hint: 'Typing your name signs your application.' }),
    ],
  },
];
