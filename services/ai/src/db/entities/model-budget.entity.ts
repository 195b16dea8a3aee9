import { defineEntity, p } from '@pp/db';

/** Model calls a user caused in one hour (the per-user budget: every replica counts here). */
const ModelBudgetSchema = defineEntity({
  name: 'ModelBudget',
  tableName: 'model_budget',
  properties: {
    userId: p.string().primary(),
    windowStart: p.datetime().primary(),
    calls: p.integer(),
  },
});
export class ModelBudget extends ModelBudgetSchema.class {}
ModelBudgetSchema.setClass(ModelBudget);
