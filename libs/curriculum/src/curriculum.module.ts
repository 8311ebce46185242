import { Module } from '@nestjs/common';

import { ConfigurableModuleClass } from './curriculum.module-definition';
import { curriculumSourceProvider } from './curriculum.providers';
import { CURRICULUM_SOURCE } from './interfaces/curriculum-source.interface';

/**
 * Where an employee is in the curriculum (the current week's theme), with the source chosen
 * by config (`local`, `pocketbase`, `none`). Inject the port with
 * `@Inject(CURRICULUM_SOURCE)`.
 */
@Module({ providers: [curriculumSourceProvider], exports: [CURRICULUM_SOURCE] })
export class CurriculumModule extends ConfigurableModuleClass {}
