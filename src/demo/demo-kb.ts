/** Demo knowledge base for R42 chat: a few topics under three weekly themes. Team-written. */
export interface DemoTopic {
  topic_id: string;
  title: string;
  theme_id: string;
  summary: string;
  text: string;
}

export const DEMO_THEMES = [
  { theme_id: 'theme_roles', name: 'Roles and governance' },
  { theme_id: 'theme_feedback', name: 'Feedback culture' },
  { theme_id: 'theme_meetings', name: 'Effective meetings' },
] as const;

export const DEMO_TOPICS: DemoTopic[] = [
  {
    topic_id: 'topic_holacratic_roles',
    title: 'Holacratic roles',
    theme_id: 'theme_roles',
    summary:
      'Roles in a holacratic organisation are defined by purpose, domains and accountabilities, and are held by people rather than being people.',
    text: 'In a holacratic organisation, work is organised around roles instead of job titles. A role is defined by three things: its purpose, the domains it controls, and its accountabilities. One person can hold several roles at once, and a role can be filled by different people over time. Roles are created, changed and removed in governance meetings, not by managers. When a tension appears, the role holder brings a proposal to governance. Each role holder has full authority to act within their role, as long as they respect the domains of other roles.',
  },
  {
    topic_id: 'topic_circles',
    title: 'Circles and lead links',
    theme_id: 'theme_roles',
    summary:
      'Circles group related roles; the lead link assigns people to roles and sets priorities for the circle.',
    text: 'A circle is a group of roles that share a common purpose. Circles can contain sub-circles, forming a nested structure instead of a hierarchy of managers. Each circle has a lead link, who assigns people to roles and sets priorities, and a rep link, who carries tensions from the circle to its parent. The lead link does not tell role holders how to do their work. Circle members meet in tactical meetings to sync on projects and in governance meetings to evolve the roles.',
  },
  {
    topic_id: 'topic_giving_feedback',
    title: 'Giving feedback',
    theme_id: 'theme_feedback',
    summary:
      'Good feedback is specific, timely and about behaviour, not personality; use the situation-behaviour-impact model.',
    text: 'Feedback works best when it is specific, timely and focused on behaviour rather than personality. Use the situation-behaviour-impact model: describe the situation, the observable behaviour, and the impact it had. Give positive feedback as often as corrective feedback. Corrective feedback should be given privately and soon after the event. Ask the other person for their view before suggesting a change, and agree on a next step together.',
  },
  {
    topic_id: 'topic_receiving_feedback',
    title: 'Receiving feedback',
    theme_id: 'theme_feedback',
    summary:
      'Receive feedback with curiosity: listen fully, ask clarifying questions, thank the giver, then decide what to act on.',
    text: 'When you receive feedback, listen to the end before responding. Ask clarifying questions to understand the specific behaviour and its impact. Thank the person for taking the time, even when you disagree. You do not have to accept every piece of feedback; take time to reflect and decide what to act on. Following up later shows the giver that their input mattered.',
  },
  {
    topic_id: 'topic_tactical_meetings',
    title: 'Tactical meetings',
    theme_id: 'theme_meetings',
    summary:
      'Tactical meetings are fast weekly syncs: check-in, checklists, metrics, project updates, then triage of tensions.',
    text: 'Tactical meetings are short weekly meetings for operational work. They follow a fixed structure: a check-in round, checklist review, metrics review, project updates, and then triage of tensions raised by members. During triage, the facilitator asks each person what they need, and the secretary records next actions and projects. Discussion is limited to what is needed to resolve each tension, which keeps the meeting fast.',
  },
  {
    topic_id: 'topic_async_updates',
    title: 'Asynchronous status updates',
    theme_id: 'theme_meetings',
    summary: 'Replace status meetings with written async updates posted by a fixed time each week.',
    text: 'Many status meetings can be replaced by written asynchronous updates. Each team member posts a short update by Thursday noon: what was finished, what is next, and what is blocked. Readers comment in the thread instead of scheduling a call. Blocked items that are not resolved in the thread are brought to the next tactical meeting. Async updates save time across time zones and leave a searchable record.',
  },
];
