import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../../orgs/entities/organization.entity';
import type { FontFormat } from '../../../orgs/storage/font-files';

/** One weight of a custom font: its file in the blob store (`custom-fonts/<font>/<file>`). */
export interface CustomFontFace {
  /** 1 to 1000 (400 regular, 700 bold); one face per weight. */
  weight: number;
  /** `<random id>.<format>`: written once, never replaced (a new file gets a new name). */
  file: string;
  format: FontFormat;
  /** Bytes. */
  size: number;
}

/**
 * A font an organization uploaded for its sites (GitBook's custom fonts): a family name and a
 * file per weight, which sites name in their customization (`styling.font`).
 */
@Entity('custom_fonts')
@Index('IDX_custom_fonts_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
export class CustomFont {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_custom_fonts' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_custom_fonts_organization_id',
  })
  organization?: Organization;

  /** The CSS font-family name, 1 to 50 characters. */
  @Column({ type: 'varchar', length: 50 })
  fontFamily!: string;

  /**
   * By weight, ascending. A few faces always read and written with their font: one value, not
   * a table of their own.
   */
  @Column({ type: 'jsonb' })
  fontFaces!: CustomFontFace[];

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
